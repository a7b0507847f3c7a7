/** Text made safe inside an HTML mail body: `& < > " '` become numeric character references. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}
