import { parseSnippet } from '../lib/snippet.js';

/** A search snippet with its matches highlighted; text only, never HTML. */
export function Snippet({ text }: { text: string }) {
  return (
    <span className="snippet">
      {parseSnippet(text).map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}
    </span>
  );
}
