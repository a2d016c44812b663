// The one script of the portal's group pages (allowed by its hash in the CSP): a leader's attendance
// is kept on the phone (localStorage) until the server has it, sent at once when online and again
// whenever the network returns. Each submission carries its client key, so one sent twice counts once.
// Without it the form still posts, with the key the server put in it.

export const GROUP_ATTENDANCE_SCRIPT = `(function(){
var K='lampstand-attendance',st=document.getElementById('attendance-status'),busy=false;
function load(){try{return JSON.parse(localStorage.getItem(K)||'[]')}catch(e){return[]}}
function keep(q){try{localStorage.setItem(K,JSON.stringify(q))}catch(e){}}
function say(t,ok){if(st){st.textContent=t;st.className=ok?'note ok':'note'}}
function key(){var a=new Uint8Array(12);crypto.getRandomValues(a);return 'a'+Date.now().toString(36)+'-'+Array.prototype.map.call(a,function(b){return(b+256).toString(16).slice(1)}).join('')}
function drop(k){keep(load().filter(function(x){return x.body.clientKey!==k}))}
function waiting(){return 'Saved on this phone. It will be sent when you are back online.'}
function flush(){
if(busy)return;var q=load();if(!q.length)return;busy=true;var it=q[0];
fetch(it.url,{method:'POST',credentials:'same-origin',headers:{'content-type':'application/json'},body:JSON.stringify(it.body)}).then(function(r){
busy=false;
if(r.ok){drop(it.body.clientKey);say('Attendance saved for '+it.label+'.',1);flush();return}
if(r.status===401){say('Please sign in again: the attendance for '+it.label+' is kept on this phone.');return}
if(r.status>=500||r.status===408||r.status===429){say(waiting());return}
drop(it.body.clientKey);return r.json().then(function(b){say('Not saved ('+it.label+'): '+(b&&b.message||'please try again'))},function(){say('Not saved ('+it.label+').')});
},function(){busy=false;say(waiting())});
}
var f=document.getElementById('attendance-form');
if(f){
var add=document.getElementById('add-visitor'),box=document.getElementById('visitors');
if(add&&box){add.hidden=false;add.addEventListener('click',function(){var n=box.querySelectorAll('input').length+1,d=document.createElement('div'),l=document.createElement('label'),i=document.createElement('input');d.className='field';l.htmlFor='visitor-'+n;l.textContent='Visitor '+n+' (name)';i.id='visitor-'+n;i.name='visitor';i.type='text';i.autocomplete='off';d.appendChild(l);d.appendChild(i);box.appendChild(d);i.focus()})}
f.addEventListener('submit',function(ev){
ev.preventDefault();var d=new FormData(f),k=String(d.get('clientKey')||key());
var body={csrf:String(d.get('csrf')),date:String(d.get('date')),clientKey:k,present:d.getAll('present').map(Number),visitors:d.getAll('visitor').map(function(v){return String(v).trim()}).filter(Boolean)};
var q=load().filter(function(x){return x.body.clientKey!==k});q.push({url:f.getAttribute('data-json'),label:f.getAttribute('data-label'),body:body});keep(q);
f.elements.namedItem('clientKey').value=key();say('Saving…');flush();
});
}
window.addEventListener('online',flush);setInterval(flush,30000);flush();
})();`;
