#!/usr/bin/env python3
"""Fails when a test puts a closure literal inside #expect(…) or #require(…).

Swift 6.3.1 miscompiles that pattern inside a closure (a test body wrapped in
`withFixtureServer { … }`, say): the closure in the macro's argument gets the same
discriminator as the next closure literal after it, SILGen emits one body for both, and
the later closure silently runs the earlier one's code. A predicate then tests the wrong
thing and the test can pass (or fail) for no reason. Bind the closure's result to a
`let` first and pass that to the macro.

A trailing closure, `#expect(throws: E.self) { try … }`, is a macro argument too and collides
the same way (verified: the next `() throws -> R` closure literal ran the macro's body; a
closure of another type made the compiler crash instead; two `#expect(throws:)` in a row
did not collide). `let body = { try … }` then `#expect(throws: E.self, performing: body)`
avoids it. Those are not flagged by default (none is followed by a closure literal of the
macro's type today); `--trailing` lists them as well.

Usage: check-test-macros.py [--trailing] [DIR…] (default Tests).
"""
import pathlib
import re
import sys

MACRO = re.compile(r"#(expect|require)\s*\(")
RAW_STRING = re.compile(r'(#+)("""|")')  # #"…"#, ##"…"##, #"""…"""#: no escapes, no interpolation to track


def argument_span(text, start):
    """The text of the macro's balanced argument list from `start` (just after its `(`),
    string literals blanked so braces inside them do not count, and the index just past
    its closing `)`."""
    depth, i, out = 1, start, []
    while i < len(text) and depth:
        c = text[i]
        raw = RAW_STRING.match(text, i)
        if raw:
            closing = raw.group(2) + raw.group(1)
            end = text.find(closing, raw.end())
            i = len(text) if end < 0 else end + len(closing)
            out.append('""')
            continue
        if text.startswith('"""', i):
            end = text.find('"""', i + 3)
            i = len(text) if end < 0 else end + 3
            out.append('""')
            continue
        if c == '"':
            j, nest = i + 1, 0
            while j < len(text):
                if text[j] == "\\" and j + 1 < len(text) and text[j + 1] == "(":
                    nest += 1; j += 2; continue
                if nest and text[j] == ")":
                    nest -= 1
                elif text[j] == "\\":
                    j += 1
                elif text[j] == '"' and not nest:
                    break
                j += 1
            out.append('""')
            i = j + 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        out.append(c)
        i += 1
    return "".join(out), i


def trailing_closure(text, start):
    """Whether a `{` follows the macro's argument list (its `(` just before `start`)."""
    _, end = argument_span(text, start)
    return text[end:].lstrip(" \t").startswith("{")


def main(roots, trailing=False):
    problems = 0
    for root in roots:
        for path in sorted(pathlib.Path(root).rglob("*.swift")):
            text = path.read_text(encoding="utf-8", errors="replace")
            for match in MACRO.finditer(text):
                line_start = text.rfind("\n", 0, match.start()) + 1
                if "//" in text[line_start:match.start()]:
                    continue  # in a comment
                if "{" in argument_span(text, match.end())[0]:
                    line = text.count("\n", 0, match.start()) + 1
                    print(f"{path}:{line}: closure literal inside #{match.group(1)}: bind it to a let first (Swift 6.3.1 miscompile, see scripts/check-test-macros.py)")
                    problems += 1
                elif trailing and trailing_closure(text, match.end()):
                    line = text.count("\n", 0, match.start()) + 1
                    print(f"{path}:{line}: trailing closure on #{match.group(1)}: bind it to a let and pass it as `performing:` (same miscompile)")
                    problems += 1
    if problems:
        print(f"{problems} closure literal(s) inside #expect/#require", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    arguments = sys.argv[1:]
    with_trailing = "--trailing" in arguments
    arguments = [a for a in arguments if a != "--trailing"]
    sys.exit(main(arguments or ["Tests"], trailing=with_trailing))
