import dns2 from 'dns2';

const { Packet } = dns2;

export interface LocalDns {
  /** host:port, for DNS_SERVER. */
  server: string;
  /** Set (or with no values, remove) the records of one name and type. */
  set(name: string, type: 'TXT' | 'CNAME', values: string[]): void;
  close(): Promise<void>;
}

/** A DNS server on loopback (the `dns2` package) answering TXT and CNAME records set by the test. */
export async function startLocalDns(): Promise<LocalDns> {
  const records = new Map<string, string[]>();
  const key = (name: string, type: string) => `${type} ${name.toLowerCase().replace(/\.$/, '')}`;
  const server = dns2.createServer({
    udp: true,
    tcp: true,
    handle(request, send) {
      const response = Packet.createResponseFromRequest(request);
      for (const q of request.questions) {
        const txt = records.get(key(q.name, 'TXT'));
        const cname = records.get(key(q.name, 'CNAME'));
        if (q.type === Packet.TYPE.TXT && txt) {
          // A string of at most 255 octets per character-string, as a DNS host splits a long record.
          for (const v of txt)
            response.answers.push({
              name: q.name,
              type: Packet.TYPE.TXT,
              class: Packet.CLASS.IN,
              ttl: 60,
              data: v.match(/.{1,255}/g) ?? [''],
            } as unknown as InstanceType<typeof Packet.Resource>);
        } else if (q.type === Packet.TYPE.CNAME && cname) {
          for (const v of cname)
            response.answers.push({
              name: q.name,
              type: Packet.TYPE.CNAME,
              class: Packet.CLASS.IN,
              ttl: 60,
              domain: v,
            } as unknown as InstanceType<typeof Packet.Resource>);
        } else if (![...records.keys()].some((k) => k.endsWith(` ${q.name.toLowerCase()}`))) {
          response.header.rcode = 3; // NXDOMAIN
        }
      }
      void send(response);
    },
  });
  const port = await freeUdpPort();
  await server.listen({ udp: { port, address: '127.0.0.1' }, tcp: { port, address: '127.0.0.1' } });
  return {
    server: `127.0.0.1:${port}`,
    set(name, type, values) {
      if (values.length) records.set(key(name, type), values);
      else records.delete(key(name, type));
    },
    close: () => server.close(),
  };
}

/** A port free for both UDP and TCP on loopback. */
async function freeUdpPort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
