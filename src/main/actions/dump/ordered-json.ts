/**
 * A JSON reader that keeps what JSON.parse loses and CKAN's dump writers need: the written
 * form of every number (`2.50`, `9007199254740993`) and the order of object keys (JSON.parse
 * moves integer-like keys such as "2014" first). The dump re-encodes records as Python does
 * after decoding them (docs/ckan-contract.md §11), which needs exactly those two facts.
 */

/** A number as written in the JSON text. */
export class JsonNumber {
  constructor(readonly text: string) {}

  /** Python's `json.loads` gives an int for `12`, a float for `12.0` or `1e3`. */
  get isInteger(): boolean {
    return !/[.eE]/.test(this.text);
  }
}

/** An object with its keys in the order they were written. */
export class JsonObject {
  constructor(readonly entries: ReadonlyArray<readonly [string, OrderedJson]>) {}
}

export type OrderedJson = null | boolean | string | JsonNumber | JsonObject | OrderedJson[];

const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const SPACE = /[ \t\n\r]*/y;

class Reader {
  private at = 0;

  constructor(private readonly text: string) {}

  document(): OrderedJson {
    const value = this.value();
    this.space();
    if (this.at !== this.text.length) this.fail();
    return value;
  }

  private value(): OrderedJson {
    this.space();
    const c = this.text[this.at];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    for (const [word, value] of [
      ['null', null],
      ['true', true],
      ['false', false],
    ] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    return new JsonNumber(this.match(NUMBER));
  }

  private object(): JsonObject {
    this.at++;
    const entries: [string, OrderedJson][] = [];
    this.space();
    if (this.text[this.at] === '}') {
      this.at++;
      return new JsonObject(entries);
    }
    for (;;) {
      this.space();
      const key = this.string();
      this.space();
      this.expect(':');
      entries.push([key, this.value()]);
      this.space();
      if (this.text[this.at] === '}') {
        this.at++;
        return new JsonObject(entries);
      }
      this.expect(',');
    }
  }

  private array(): OrderedJson[] {
    this.at++;
    const items: OrderedJson[] = [];
    this.space();
    if (this.text[this.at] === ']') {
      this.at++;
      return items;
    }
    for (;;) {
      items.push(this.value());
      this.space();
      if (this.text[this.at] === ']') {
        this.at++;
        return items;
      }
      this.expect(',');
    }
  }

  private string(): string {
    // The token is valid JSON by the pattern, so JSON.parse only unescapes it.
    return JSON.parse(this.match(STRING)) as string;
  }

  private match(pattern: RegExp): string {
    pattern.lastIndex = this.at;
    const m = pattern.exec(this.text);
    if (!m || m[0] === '') this.fail();
    this.at += m[0].length;
    return m[0];
  }

  private space(): void {
    SPACE.lastIndex = this.at;
    this.at += SPACE.exec(this.text)![0].length;
  }

  private expect(c: string): void {
    if (this.text[this.at] !== c) this.fail();
    this.at++;
  }

  private fail(): never {
    throw new SyntaxError(`invalid JSON at position ${this.at}`);
  }
}

export function parseOrderedJson(text: string): OrderedJson {
  return new Reader(text).document();
}
