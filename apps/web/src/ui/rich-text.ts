/**
 * tiptap `editorProps` that name the editable area (tiptap gives it role="textbox") after its visible
 * label, so screen readers announce it and axe finds no unnamed input.
 */
export function labelledEditorProps(label: string) {
  return { attributes: { 'aria-label': label, 'aria-multiline': 'true' } };
}
