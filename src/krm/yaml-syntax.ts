// YAML syntax errors in plain words, one per real problem, at the line the user must edit.
//
// `yaml` reports what its parser met, where it met it: an unclosed quote at the end of the file,
// a line indented too far as an error on the line above, a tab as one of four errors. Here each
// error is matched to its likely cause by looking at the text around it (and at the CST for where
// a quote or bracket opened); errors that follow from a cause already found are dropped. Nothing
// of a value is quoted (it may be a secret): only key names, which are clipped.
import type { CST, LineCounter } from 'yaml';

/** An error as `yaml` reports it. */
export interface YamlError {
  code: string;
  message: string;
  pos: [number, number];
}

/** A cause found for an error: where to edit, what to say, and the lines its follow-on errors fall on. */
export interface SyntaxCause {
  line: number;
  col: number;
  message: string;
  /** Lines (inclusive) where further errors are taken as caused by this one. */
  region: [number, number];
  /** A cause known for sure (a tab, an unclosed quote or bracket): explained before any other error. */
  primary: boolean;
  /**
   * Read from how lines are indented against each other (or not known at all): a tab earlier in
   * the document, whose width YAML does not know, misplaces every line after it, so such a cause
   * after a tab is taken as its follow-on. Causes read from a line's own text are kept.
   */
  fromLayout?: boolean;
}

/** What explaining needs besides the error: the text, its lines, and the CST of the documents with errors. */
export interface SyntaxContext {
  text: string;
  lines: LineCounter;
  cst: readonly CST.Token[];
}

/**
 * The causes of one document's errors, one per real problem: certain causes first claim the
 * lines their follow-on errors fall on, then every other error is explained unless it falls on
 * lines claimed already. `fallback` words an error no rule here knows.
 */
export function explainSyntaxErrors(errors: readonly YamlError[], context: SyntaxContext, fallback: (error: YamlError) => string): SyntaxCause[] {
  const sorted = [...errors].sort((a, b) => a.pos[0] - b.pos[0]);
  const causes = sorted.map((error) => ({ error, cause: causeOf(error, context, fallback) }));
  const kept: SyntaxCause[] = [];
  const claimed = (line: number): boolean => kept.some((cause) => line >= cause.region[0] && line <= cause.region[1]);
  for (const pass of [true, false]) {
    for (const { error, cause } of causes) {
      if (cause.primary !== pass) continue;
      // Each tab is a mistake of its own (mergeTabs says them once); nothing else explains one.
      if (cause.message !== tabMessage && (claimed(cause.line) || claimed(lineOf(error.pos[0], context)))) continue;
      kept.push(cause);
    }
  }
  return mergeTabs(afterTabsDropped(kept)).sort((a, b) => a.line - b.line || a.col - b.col);
}

/** Causes read from the layout below a tab follow from it (a correct key further down looked misaligned). */
function afterTabsDropped(causes: SyntaxCause[]): SyntaxCause[] {
  const tabLines = causes.filter((cause) => cause.message === tabMessage).map((cause) => cause.line);
  if (tabLines.length === 0) return causes;
  const firstTab = Math.min(...tabLines);
  return causes.filter((cause) => !(cause.fromLayout && cause.line > firstTab));
}

/** Whether a line (of a node problem, say) lies where a cause's follow-on errors fall. */
export const withinCauses = (causes: readonly SyntaxCause[], line: number): boolean =>
  causes.some((cause) => line >= cause.region[0] && line <= cause.region[1]);

export const tabMessage = 'tabs are not allowed for indentation; use spaces';

function causeOf(error: YamlError, context: SyntaxContext, fallback: (error: YamlError) => string): SyntaxCause {
  const { line, col } = context.lines.linePos(error.pos[0]);
  const at = (message: string, primary = false, region: [number, number] = [line, line], fromLayout = false): SyntaxCause => ({
    line,
    col,
    message,
    region,
    primary,
    fromLayout,
  });
  // An error no rule here knows may be a follow-on of anything, a tab above included.
  const unknown = (): SyntaxCause => at(fallback(error), false, [line, line], true);
  const first = error.message.split('\n')[0] ?? '';
  if (error.code === 'TAB_AS_INDENT') return at(tabMessage, true, [line - 1, line + 1]);
  if (error.code === 'MISSING_CHAR' && /^Missing closing ["']quote/.test(first)) return unclosedQuote(error, context) ?? unknown();
  if (/^Flow (sequence|map) (in block collection must be sufficiently indented|must end with)/.test(first)) return flowCollection(error, context) ?? unknown();
  if (error.code === 'BLOCK_IN_FLOW') return at(blockInFlow(error, context), true);
  if (/^All (mapping|sequence) items must start at the same column/.test(first)) {
    const what = first.includes('mapping') ? 'keys of one mapping' : 'items of one list';
    return { ...at(misaligned(line, context, what), false, [line, line], true), col: indentOf(lineText(line, context)) + 1 };
  }
  if (/^Nested mappings are not allowed in compact mappings/.test(first)) return nestedInValue(line, col, context) ?? unknown();
  if (/^(A block sequence may not be used as an implicit map key|Unexpected block-seq-ind on same line with key)/.test(first))
    return listItemInMapping(error, context) ?? unknown();
  if (/^(Implicit keys need to be on a single line|Implicit map keys need to be followed by map values)/.test(first))
    return notAKeyLine(line, col, context) ?? unknown();
  return unknown();
}

/** Tabs on several lines of a document are one mistake: said once, at the first line, naming the others. */
function mergeTabs(causes: SyntaxCause[]): SyntaxCause[] {
  const tabs = causes.filter((cause) => cause.message === tabMessage);
  if (tabs.length < 2) return causes;
  const [first, ...rest] = tabs.sort((a, b) => a.line - b.line) as [SyntaxCause, ...SyntaxCause[]];
  const shown = rest.slice(0, 5).map((cause) => cause.line);
  const more = rest.length > shown.length ? ' and others' : '';
  const merged: SyntaxCause = { ...first, message: `${tabMessage} (also on line${shown.length > 1 ? 's' : ''} ${shown.join(', ')}${more})` };
  return [merged, ...causes.filter((cause) => cause.message !== tabMessage)];
}

/**
 * A quote that is never closed: `yaml` says so where it stopped reading the value, and the user
 * edits where it opened. With no quote of its kind further on, the value runs to the end of the
 * file (over `---` lines too); with one, `yaml` ends the value before the first line indented no
 * more than its key, a `---` line included. Either way the message names where that was.
 */
function unclosedQuote(error: YamlError, context: SyntaxContext): SyntaxCause | undefined {
  const token = findToken(
    context.cst,
    (t) => (t.type === 'double-quoted-scalar' || t.type === 'single-quoted-scalar') && t.offset + t.source.length === error.pos[0],
  );
  if (!token || !('source' in token)) return undefined;
  const { line, col } = context.lines.linePos(token.offset);
  const quote = token.type === 'double-quoted-scalar' ? '"' : "'";
  const end = lineOf(error.pos[0], context);
  const toEnd = error.pos[0] >= context.text.trimEnd().length;
  const where = toEnd || end === line ? 'on this line' : `where it ends (by line ${end})`;
  const after = toEnd ? undefined : nextContentLine(end, context);
  return {
    line,
    col,
    message: `the quote ${quote} opened here is never closed${toEnd ? `, so ${restOfFile(line, context)} was read as one text` : before(after, context)}; ` +
      `end the value with ${quote} ${where}`,
    region: [line, toEnd || after === undefined ? end : after - 1],
    primary: true,
  };
}

/** The rest of a file a quote ran over, naming the first `---` in it: the documents after it were lost in the value. */
function restOfFile(line: number, context: SyntaxContext): string {
  for (let n = line + 1; n <= context.lines.lineStarts.length; n++) {
    if (/^---(\s|$)/.test(lineText(n, context))) return `the rest of the file (the \`---\` on line ${n} and the documents after it too)`;
  }
  return 'the rest of the file';
}

/** Where `yaml` ended an unclosed quoted value: before a `---` or `...` line, or before a line indented no more than its key. */
function before(next: number | undefined, context: SyntaxContext): string {
  if (next === undefined) return '';
  const marker = /^(---|\.\.\.)(\s|$)/.exec(lineText(next, context))?.[1];
  if (marker) return ` before the \`${marker}\` on line ${next}`;
  return ` before line ${next}, which YAML reads as the next key (it is indented no more than this value's key)`;
}

/**
 * A `[` or `{` at the end of which `yaml` found a line too little indented: either it is never
 * closed (the usual case), or a line of it is indented no more than its key.
 */
function flowCollection(error: YamlError, context: SyntaxContext): SyntaxCause | undefined {
  const found = findToken(context.cst, (t) => t.type === 'flow-collection' && t.start.offset < error.pos[0] && !isClosed(t) && endOf(t) <= error.pos[0] + 1);
  const open = found?.type === 'flow-collection' ? found.start : undefined;
  if (!open) return undefined;
  const { line, col } = context.lines.linePos(open.offset);
  const end = lineOf(error.pos[0], context);
  const close = open.source === '[' ? ']' : '}';
  const what = open.source === '[' ? 'list' : 'mapping';
  const endText = lineText(end, context);
  if (end > line && endText.includes(close)) {
    // Closed on a line that is indented no more than the key: `yaml` ended the collection there.
    const key = keyName(lineText(line, context));
    return {
      line: end,
      col: indentOf(endText) + 1,
      message: `a ${what} in \`${open.source}${close}\` that goes on over several lines must indent them more than its key${key ? ` ${key}` : ''} (line ` +
        `${line}); indent this line further`,
      region: [line, end],
      primary: true,
    };
  }
  return {
    line,
    col,
    message: `the \`${open.source}\` opened here is never closed; end the ${what} with \`${close}\` (a ${what} in \`${open.source}${close}\` that goes on ` +
      `over several lines must indent them more than its key)`,
    region: [line, end],
    primary: true,
  };
}

/** A key or item less indented than the one it follows, but more than the collection around it. */
function misaligned(line: number, context: SyntaxContext, what: string): string {
  const indent = indentOf(lineText(line, context));
  let first: number | undefined;
  let outer: number | undefined;
  for (let above = line - 1; above >= 1; above--) {
    const text = lineText(above, context);
    if (isBlank(text)) continue;
    if (indentOf(text) <= indent) {
      outer = above;
      break;
    }
    if (first === undefined || indentOf(text) <= indentOf(lineText(first, context))) first = above;
  }
  const column = (n: number): number => indentOf(lineText(n, context)) + 1;
  const named = (n: number): string => `${keyName(lineText(n, context)) ?? 'the line'} (line ${n}, column ${column(n)})`;
  const here = `this line starts at column ${indent + 1}, but the ${what} must start at the same column`;
  if (first === undefined) return `${here}; line it up with the one above it`;
  const belongs = outer !== undefined ? `, or at column ${column(outer)} like ${named(outer)}` : '';
  return `${here}: indent it to column ${column(first)} like ${named(first)}${belongs}, whichever it belongs to`;
}

/**
 * `Nested mappings are not allowed in compact mappings`: either a value holds `: ` (`image: a:b c: d`),
 * or the next line is indented under a key that already has a value.
 */
function nestedInValue(line: number, col: number, context: SyntaxContext): SyntaxCause | undefined {
  const text = lineText(line, context);
  const key = keyName(text);
  if (/:(\s|$)/.test(text.slice(col - 1))) {
    return {
      line,
      col,
      message: `the value${key ? ` of ${key}` : ''} holds \`: \`, which YAML reads as the start of a mapping inside the value; quote the whole value ('…' ` +
        `or "…")`,
      region: [line, line],
      primary: true,
    };
  }
  const next = nextContentLine(line, context);
  if (next === undefined || indentOf(lineText(next, context)) <= indentOf(text)) return undefined;
  const dedented = dedentedKey(line, next, context);
  if (dedented) return dedented;
  const column = indentOf(text) + 1;
  return {
    line: next,
    col: indentOf(lineText(next, context)) + 1,
    message: `this line is indented more than the key above it expects: ${key ?? 'the key'} on line ${line} already has a value, so nothing can be nested ` +
      `under it; start this line at column ${column}, like that key, or move that value onto lines of its own`,
    region: [line, next],
    primary: true,
    fromLayout: true,
  };
}

/**
 * A key with a value followed by a line indented more: either that line is indented too far, or
 * the key itself was moved left of its siblings. It is the key when other keys of its mapping
 * (below the same parent) start where the next line does and none start where the key does; the
 * user edits the key's line, not the next one.
 */
function dedentedKey(line: number, next: number, context: SyntaxContext): SyntaxCause | undefined {
  const indent = indentOf(lineText(line, context));
  const nextIndent = indentOf(lineText(next, context));
  const block = blockAround(line, context);
  const others = block.filter((n) => n !== line && n !== next);
  const likeNext = others.filter((n) => indentOf(lineText(n, context)) === nextIndent);
  if (likeNext.length === 0 || others.some((n) => indentOf(lineText(n, context)) === indent)) return undefined;
  // The sibling nearest above, as the user reads it; else the next line, which is one too.
  const sibling = likeNext.filter((n) => n < line).pop() ?? next;
  const name = keyName(lineText(sibling, context)) ?? 'the line';
  return {
    line,
    col: indent + 1,
    message: `this line starts at column ${indent + 1}, but the keys of one mapping must start at the same column: indent it to column ${nextIndent + 1} ` +
      `like ${name} (line ${sibling}, column ${nextIndent + 1})`,
    region: [line, next],
    primary: true,
    fromLayout: true,
  };
}

/** The content lines below the parent of a line (the nearest line above indented less), up to the parent's next sibling. */
function blockAround(line: number, context: SyntaxContext): number[] {
  const indent = indentOf(lineText(line, context));
  let parent = 0;
  for (let above = line - 1; above >= 1; above--) {
    const text = lineText(above, context);
    if (!isBlank(text) && indentOf(text) < indent) {
      parent = above;
      break;
    }
  }
  const floor = parent > 0 ? indentOf(lineText(parent, context)) : -1;
  const block: number[] = [];
  for (let n = parent + 1; n <= context.lines.lineStarts.length; n++) {
    const text = lineText(n, context);
    if (isBlank(text)) continue;
    if (/^(---|\.\.\.)(\s|$)/.test(text) || indentOf(text) <= floor) break;
    block.push(n);
  }
  return block;
}

/** A `- ` item where a mapping expects `key: value`. */
function listItemInMapping(error: YamlError, context: SyntaxContext): SyntaxCause | undefined {
  const start = lineOf(error.pos[0], context);
  for (let line = start; line <= Math.min(start + 1, context.lines.lineStarts.length); line++) {
    const text = lineText(line, context);
    if (!/^\s*- /.test(text) && !/^\s*-$/.test(text)) continue;
    return {
      line,
      col: indentOf(text) + 1,
      message:
        'a list item (`- `) where the mapping around it expects `key: value` lines; a mapping cannot also hold list items: put the list under a key of its ' +
          'own (`key:` and the items indented below it)',
      region: [start, line],
      primary: false,
      fromLayout: true,
    };
  }
  return undefined;
}

/** A line in a mapping that is no `key: value`: a `:` without a space after it, or no `:` at all. */
function notAKeyLine(line: number, col: number, context: SyntaxContext): SyntaxCause | undefined {
  const text = lineText(line, context);
  const rest = text.slice(col - 1);
  if (/^- /.test(rest)) return listItemInMapping({ code: '', message: '', pos: [context.lines.lineStarts[line - 1] ?? 0, 0] }, context);
  const next = nextContentLine(line, context) ?? line;
  const region: [number, number] = [line, next];
  const squeezed = /^([^\s:#'"][^\s:#]*):[^\s:]/.exec(rest);
  if (squeezed && !/:(\s|$)/.test(rest)) {
    return {
      line,
      col,
      message: `a key needs a space after its \`:\`: write ${quotedName(squeezed[1] ?? '')} followed by \`: \` and the value`,
      region,
      primary: false,
    };
  }
  if (!/:(\s|$)/.test(rest)) {
    return {
      line,
      col,
      message: 'this line is not `key: value` (it has no `: `), where the mapping around it expects one; add the missing `: `, or remove the line',
      region,
      primary: false,
    };
  }
  return undefined;
}

/**
 * A block construct inside `[…]` or `{…}`: a `- ` item, or a value holding `: ` (which also
 * happens when a `,` between two entries is missing).
 */
function blockInFlow(error: YamlError, context: SyntaxContext): string {
  const brackets = innermostBracket(context.text, error.pos[0]) === '[' ? '`[…]`' : '`{…}`';
  if (/^-(\s|$)/.test(context.text.slice(error.pos[0], error.pos[0] + 2))) {
    return `a list item (\`- \`) inside ${brackets}; write the items inside the brackets separated by \`,\`, or write the list as \`- \` lines without the ` +
      `brackets`;
  }
  return `a value inside ${brackets} holds \`: \`, which YAML cannot read there; quote the value ('…' or "…"), or if it is two entries, put a \`,\` between ` +
    `them`;
}

/** The innermost `[` or `{` open at an offset, by counting brackets back on its lines (quotes are rare enough in keys here). */
function innermostBracket(text: string, offset: number): string | undefined {
  let depth = 0;
  for (let i = offset - 1; i >= 0; i--) {
    const ch = text[i];
    if (ch === ']' || ch === '}') depth++;
    else if (ch === '[' || ch === '{') {
      if (depth === 0) return ch;
      depth--;
    }
  }
  return undefined;
}

/** `yaml`'s words for the user's tokens, by token type (the types are the parser's, never the input). */
const tokenWords: Readonly<Record<string, string>> = {
  'flow-seq-end': 'a `]` with no `[` open before it',
  'flow-map-end': 'a `}` with no `{` open before it',
  'flow-seq-start': 'a `[`',
  'flow-map-start': 'a `{`',
  comma: 'a `,`',
  'map-value-ind': 'a `:`',
  'seq-item-ind': 'a `- `',
  'explicit-key-ind': 'a `?`',
  anchor: 'an anchor (`&`)',
  tag: 'a tag (`!`)',
  alias: 'an alias (`*`)',
  'doc-start': 'a `---`',
  'doc-end': 'a `...` line',
  'block-scalar-header': 'a `|` or `>`',
  'double-quoted-scalar': 'a quoted value',
  'single-quoted-scalar': 'a quoted value',
};
const indicators: Readonly<Record<string, string>> = { ',': 'comma', ':': 'map-value-ind', '-': 'seq-item-ind', '?': 'explicit-key-ind' };
const flowName = (name: string | undefined): string => (name === 'flow map' ? '`{…}`' : name === 'flow sequence' ? '`[…]`' : 'this collection');
const unexpectedText = 'unexpected text: check the indentation of this line, and that no `...` line (the end of a document) comes before it';

/** What a token the parser did not expect here is, and what to do, from its type. */
function unexpectedToken(type: string | undefined, inside?: string): string {
  if (type === undefined || type === 'scalar') return unexpectedText;
  const words = tokenWords[type];
  if (!words) return genericYamlMessage;
  const closing = type === 'flow-seq-end' || type === 'flow-map-end';
  return `${words}${inside ? ` inside ${inside}` : ''}${closing ? '' : ' where YAML does not expect one'}; remove it, or quote the value it belongs to ('…' ` +
    `or "…")`;
}

/**
 * `yaml`'s error messages in plain words, by code and first sentence, for an error no rule above
 * explains from the text around it. Every message `yaml` 2.9 emits has a line here
 * (test/unit/yaml-syntax.test.ts runs each); one it adds later gets the generic message at the end,
 * never the parser's sentence, which may be cut short or end in the input (a secret).
 */
const plainMessages: ReadonlyArray<[code: string, first: RegExp, say: string | ((match: RegExpExecArray) => string)]> = [
  ['KEY_OVER_1024_CHARS', /^The : indicator must be at most 1024 chars/, 'this key is longer than the 1024 characters YAML allows for a key; shorten it'],
  [
    'BLOCK_IN_FLOW',
    /^Block collections are not allowed within flow collections/,
    'a `- ` item or a value holding `: ` inside `[…]` or `{…}`; quote the value, or write the collection as lines without the brackets',
  ],
  [
    'MULTILINE_IMPLICIT_KEY',
    /^Implicit keys of flow sequence pairs need to be on a single line/,
    'a `key: value` inside `[…]` must be on one line; join its lines, or quote the item if the `:` is part of it',
  ],
  ['MULTILINE_IMPLICIT_KEY', /^Implicit keys need to be on a single line/, 'a key and its `: ` must be on one line; join the lines, or quote the key'],
  [
    'MISSING_CHAR',
    /^Implicit map keys need to be followed by map values/,
    'this key has no `: ` after it, where the mapping around it expects `key: value`; add the missing `: `, or remove the line',
  ],
  [
    'BLOCK_AS_IMPLICIT_KEY',
    /^A block sequence may not be used as an implicit map key/,
    'a list item (`- `) where the mapping around it expects `key: value` lines; put the list under a key of its own (`key:` and the items indented below it)',
  ],
  [
    'BLOCK_AS_IMPLICIT_KEY',
    /^Nested mappings are not allowed in compact mappings/,
    'a value holds `: `, which YAML reads as a mapping inside the value; quote the whole value (\'…\' or "…"), or move what is nested onto lines of its own',
  ],
  [
    'UNEXPECTED_TOKEN',
    /^Unexpected block-seq-ind on same line with key/,
    'a list item (`- `) cannot start on the line of its key; put the items on the lines below it, indented, or quote the value if the `-` is part of it',
  ],
  ['BAD_INDENT', /^All mapping items must start at the same column/, 'the keys of one mapping must start at the same column; line this key up with the others'],
  ['BAD_INDENT', /^All sequence items must start at the same column/, 'the items of one list must start at the same column; line this `- ` up with the others'],
  [
    'BAD_INDENT',
    /^Flow (sequence|map) in block collection must be sufficiently indented/,
    (m) =>
      `a ${flowName(`flow ${m[1]}`)} value must end with its closing bracket, and its lines must be indented more than its key; close it, or indent its ` +
        `lines further`,
  ],
  ['MISSING_CHAR', /^Flow (sequence|map) must end with a/, (m) => `a ${flowName(`flow ${m[1]}`)} is never closed; end it with its closing bracket`],
  [
    'BAD_INDENT',
    /^Flow end indicator should be more indented than parent/,
    'the closing bracket must be indented more than the key the collection belongs to; indent it further',
  ],
  [
    'BAD_INDENT',
    /^Block scalar values in collections must be indented/,
    'the text of a `|` or `>` block must be indented more than its key; indent its lines further',
  ],
  [
    'BAD_INDENT',
    /^Block scalar lines must not be less indented than their/,
    'a line of a `|` or `>` block is indented less than its first line; indent it at least as far as the first line',
  ],
  [
    'MISSING_CHAR',
    /^Block scalars with more-indented leading empty lines/,
    'a `|` or `>` block starts with blank lines holding more spaces than its first line of text; remove the spaces on those blank lines, or give the ' +
      'indentation after the `|` (`|2`)',
  ],
  ['MISSING_CHAR', /^Missing closing (["'])quote/, (m) => `a quote ${m[1] ?? '"'} opened in this value is never closed; end the value with ${m[1] ?? '"'}`],
  [
    'MISSING_CHAR',
    /^Missing , between (flow map|flow sequence) items/,
    (m) => `items inside ${flowName(m[1])} must be separated by \`,\`; add the missing \`,\``,
  ],
  [
    'MISSING_CHAR',
    /^Missing , or : between (flow map|flow sequence) items/,
    (m) =>
      `items inside ${flowName(m[1])} must be separated by \`,\`, and a key from its value by \`: \`; add what is missing, or quote the item if it is one text`,
  ],
  [
    'MISSING_CHAR',
    /^Missing space after : in (flow map|flow sequence)/,
    (m) => `a key inside ${flowName(m[1])} needs a space after its \`:\`; write \`key: value\``,
  ],
  [
    'MISSING_CHAR',
    /^Comments must be separated from other tokens by white space/,
    'a comment (`#`) must have a space before it; add one, or quote the value if the `#` is part of it',
  ],
  [
    'MISSING_CHAR',
    /^Tags and anchors must be separated from the next token by white space/,
    'a tag (`!`) or anchor (`&`) must be followed by a space; add one, or quote the value if the `!` or `&` is part of it',
  ],
  [
    'MISSING_CHAR',
    /^Sequence item without - indicator/,
    'a line in a list that does not start with `- `; start it with `- `, or indent it under the item above',
  ],
  [
    'MISSING_CHAR',
    /^Missing directives-end(\/doc-start)? indicator line/,
    'a `%` directive line must be followed by a `---` line before the document; add `---`, or remove the directive',
  ],
  [
    'MISSING_CHAR',
    /^Block collection cannot start on same line with directives-end marker/,
    'a mapping or list cannot start on the `---` line; move it to the next line',
  ],
  [
    'MISSING_CHAR',
    /^Missing newline after block sequence props/,
    'an anchor (`&`) or tag (`!`) of a list must be followed by a line break; put the `- ` items on the lines below it',
  ],
  [
    'UNEXPECTED_TOKEN',
    /^Unexpected empty item in (flow map|flow sequence)/,
    (m) => `an empty item inside ${flowName(m[1])} (a \`,\` first, or two in a row); remove the extra \`,\``,
  ],
  ['UNEXPECTED_TOKEN', /^Unexpected (\S) in (flow map|flow sequence|collection)/, (m) => unexpectedToken(indicators[m[1] ?? ''], flowName(m[2]))],
  [
    'UNEXPECTED_TOKEN',
    /^Block scalar header includes extra characters/,
    'only `-` or `+`, an indentation digit and a comment may follow `|` or `>` on its line; put the text on the lines below it, indented',
  ],
  ['UNEXPECTED_TOKEN', /^Unexpected ([a-z-]+) (?:token )?(?:in YAML (?:stream|document)|at node end)/, (m) => unexpectedToken(m[1])],
  ['UNEXPECTED_TOKEN', /^Unexpected ([a-z-]+) token/, (m) => unexpectedToken(m[1])],
  ['UNEXPECTED_TOKEN', /^Unexpected doc-end without preceding document/, 'a `...` line (the end of a document) where no document has started; remove it'],
  ['UNEXPECTED_TOKEN', /^Not a YAML token/, 'a character YAML cannot read here; quote the value it belongs to'],
  ['MULTIPLE_ANCHORS', /^A node can have at most one anchor/, 'a value can have only one anchor (`&`); remove the others'],
  ['MULTIPLE_TAGS', /^A node can have at most one tag/, 'a value can have only one tag (`!`); remove the others'],
  ['BAD_ALIAS', /^Anchor cannot be an empty string/, 'an anchor (`&`) needs a name after the `&`; write `&name`, or quote the value if the `&` is part of it'],
  ['BAD_ALIAS', /^Alias cannot be an empty string/, 'an alias (`*`) needs a name after the `*`; write `*name`, or quote the value if the `*` is part of it'],
  [
    'BAD_ALIAS',
    /^(Anchor|Alias) ending in : is ambiguous/,
    (m) => `the name of an ${m[1] === 'Anchor' ? 'anchor (`&`)' : 'alias (`*`)'} cannot end in \`:\`; put a space before the \`:\``,
  ],
  ['ALIAS_PROPS', /^An alias node must not specify any properties/, 'an alias (`*`) cannot have an anchor (`&`) or tag (`!`) of its own; remove them'],
  ['BAD_PROP_ORDER', /^/, 'anchors (`&`) and tags (`!`) must come after the `-`, `?` or `:` indicator'],
  ['BAD_SCALAR_START', /^/, 'a plain value cannot start with this character; quote the value'],
  ['BAD_DQ_ESCAPE', /^/, 'a double-quoted string holds an escape sequence YAML does not know; write \\\\ for a backslash, or use single quotes'],
  ['BAD_DIRECTIVE', /^/, 'this `%` directive is not valid here; remove it (only `%YAML 1.1`, `%YAML 1.2` and `%TAG` are)'],
  ['TAG_RESOLVE_FAILED', /^/, 'the tag here cannot be resolved, or the value does not fit it; remove the tag, or quote the value'],
  ['BAD_COLLECTION_TYPE', /^/, 'the tag here is for another kind of collection; remove the tag'],
  ['DUPLICATE_KEY', /^/, 'this key appears twice in one mapping; keep only one'],
  ['NON_STRING_KEY', /^/, 'a key must be text; quote it'],
];

/** What YAML cannot read, when no line above knows the message: nothing of the parser's words. */
export const genericYamlMessage =
  'YAML cannot read this line from here on; check its indentation, and quote a value that holds `: ` or ` #` or starts with one of [ ] { } & * ! | > % @ `';

/** `yaml`'s error in plain words: the first entry of its code whose pattern the message's first line matches. */
export function plainYamlMessage(error: Pick<YamlError, 'code' | 'message'>): string {
  const first = error.message.split('\n')[0] ?? '';
  for (const [code, pattern, say] of plainMessages) {
    if (code !== error.code) continue;
    const match = pattern.exec(first);
    if (match) return typeof say === 'string' ? say : say(match);
  }
  return genericYamlMessage;
}

function isClosed(token: CST.FlowCollection): boolean {
  return token.end.some((t) => t.type === 'flow-map-end' || t.type === 'flow-seq-end');
}

function endOf(token: CST.FlowCollection): number {
  const last = token.end[token.end.length - 1];
  return last ? last.offset + last.source.length : token.offset;
}

/** The first token of the CST (documents with errors) that matches, without recursion (nesting may be deep). */
function findToken(roots: readonly CST.Token[], match: (token: CST.Token) => boolean): CST.Token | undefined {
  const stack: unknown[] = [...roots].reverse();
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item !== 'object' || item === null) continue;
    if ('type' in item && typeof item.type === 'string' && match(item as CST.Token)) return item as CST.Token;
    const children = Array.isArray(item) ? item : Object.values(item);
    for (let i = children.length - 1; i >= 0; i--) if (typeof children[i] === 'object') stack.push(children[i]);
  }
  return undefined;
}

const lineOf = (offset: number, context: SyntaxContext): number => context.lines.linePos(offset).line;

function lineText(line: number, context: SyntaxContext): string {
  const start = context.lines.lineStarts[line - 1];
  if (start === undefined) return '';
  const end = context.text.indexOf('\n', start);
  return context.text.slice(start, end === -1 ? undefined : end).replace(/\r$/, '');
}

const isBlank = (text: string): boolean => /^\s*(#.*)?$/.test(text);
const indentOf = (text: string): number => /^[ ]*/.exec(text)?.[0].length ?? 0;

function nextContentLine(line: number, context: SyntaxContext): number | undefined {
  for (let next = line + 1; next <= context.lines.lineStarts.length; next++) if (!isBlank(lineText(next, context))) return next;
  return undefined;
}

/** The key a line starts with, quoted for a message (keys are names, never values), or undefined. */
function keyName(text: string): string | undefined {
  const name = /^\s*(?:-\s+)*("[^"]*"|'[^']*'|[^\s:#'"][^:#]*?)\s*:(?:\s|$)/.exec(text)?.[1];
  return name === undefined ? undefined : quotedName(name.replace(/^["']|["']$/g, ''));
}

function quotedName(name: string): string {
  return `\`${name.length > 60 ? `${name.slice(0, 57)}...` : name}\``.replace(/[\x00-\x1f\x7f]/g, '?');
}
