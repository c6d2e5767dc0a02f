#!/usr/bin/env python3
"""Extracts the Swift code samples of Markdown files into Swift files that type-check.

    scripts/doc_samples.py OUT_DIR FILE.md...
    scripts/doc_samples.py --check-width COLUMNS FILE...

For each Markdown file it writes OUT_DIR/<Name>.samples.swift and prints its name, block count,
path and kind (`samples`). Used by scripts/check-doc-samples.sh, which type-checks each file
together with its prelude, Docs/Samples/<Name>.swift (the names the samples assume: a base URL, a
User type, tokens...).

Package manifests are checked against PackageDescription instead: a ```swift block that imports
PackageDescription (a whole Package.swift) goes to its own OUT_DIR/<Name>.manifest<N>.swift, and
a block that is only `.package(...)` dependencies goes into a `[Package.Dependency]` array in
OUT_DIR/<Name>.dependencies.swift; each such file is printed with the kind `manifest`.

With --check-width it prints every line wider than COLUMNS of a fenced Swift or plain code block
(```swift, ```swift-other, ``` with no language; in Markdown files) or of a fenced code block in
a `///` doc comment (in Swift files, measured after the
`///` and one space), and exits with status 1 if there is one: wider lines are cut off in the
rendered documentation.

Which blocks are checked:
  - every fenced block whose language is `swift`;
  - not ```swift-other (other libraries' code, shown for comparison) nor ```swift-fragment
    (a piece that cannot stand alone, such as an excerpt of Package.swift): their language is not
    `swift`, so they are skipped. Use them sparingly.

How a block is placed: it is cut into top-level chunks (an `#if` ... `#endif` is one chunk). Declarations (struct, enum, class, actor,
protocol, extension, func, typealias, a `@Test` function) go at file scope, so later samples of the
same article can use them; imports are gathered at the top. The other chunks of a block (`let`,
expressions, `do`/`catch`...) are wrapped together in their own `func sample_N() async throws`, so
names never clash between blocks. `#sourceLocation` points every diagnostic at the Markdown line.
"""

import os
import re
import sys

DECLARATION_KEYWORDS = {
    "struct", "enum", "class", "actor", "protocol", "extension", "func", "typealias", "import",
}
MODIFIERS = {
    "public", "private", "fileprivate", "internal", "package", "final", "nonisolated", "static",
    "indirect", "open",
}
# Lines that continue the statement above them rather than starting a new one.
CONTINUATION_START = re.compile(r"^\s*(\.|\}|\)|\]|&&|\|\||\+|-(?!>)|\*|/(?!/)|\?|:|=(?!=)|else\b|catch\b|where\b|in\b)")
CONTINUATION_END = re.compile(r"(=|,|\(|\[|\{|->|&&|\|\||\+|\bin|\bawait|\btry)\s*$")

# Every sample sees these modules, as if the article's imports were at the top of each one.
DEFAULT_IMPORTS = [
    "Foundation", "Synchronization", "EndpointCore", "EndpointJSON", "EndpointTransport",
    "EndpointTesting", "Testing",
]


def code_blocks(text):
    """Yields (first line number of the code, code lines) for every ```swift block."""
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        match = re.match(r"^(\s*)(`{3,}|~{3,})\s*([^\s`]*)", lines[index])
        if not match:
            index += 1
            continue
        indent, fence, language = match.group(1), match.group(2), match.group(3)
        start = index + 1
        index += 1
        body = []
        while index < len(lines) and not re.match(
            r"^\s*" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}\s*$", lines[index]
        ):
            line = lines[index]
            body.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
            index += 1
        index += 1
        if language == "swift":
            yield start + 1, body


class Scanner:
    """Tracks bracket depth across lines, skipping strings, comments and interpolations."""

    def __init__(self):
        self.depth = 0
        self.in_block_comment = 0
        self.multiline = None  # the closing delimiter of an open multi-line string

    def feed(self, line):
        i = 0
        n = len(line)
        while i < n:
            if self.in_block_comment:
                if line.startswith("*/", i):
                    self.in_block_comment -= 1
                    i += 2
                elif line.startswith("/*", i):
                    self.in_block_comment += 1
                    i += 2
                else:
                    i += 1
                continue
            if self.multiline is not None:
                end = line.find(self.multiline, i)
                if end < 0:
                    return
                i = end + len(self.multiline)
                self.multiline = None
                continue
            c = line[i]
            if line.startswith("//", i):
                return
            if line.startswith("/*", i):
                self.in_block_comment += 1
                i += 2
                continue
            hashes = re.match(r"#*", line[i:]).group(0)
            if line.startswith(hashes + '"""', i):
                self.multiline = '"""' + hashes
                i += len(hashes) + 3
                continue
            if line.startswith(hashes + '"', i):
                i = self.skip_string(line, i + len(hashes) + 1, hashes)
                continue
            if c in "([{":
                self.depth += 1
            elif c in ")]}":
                self.depth -= 1
            i += 1

    def skip_string(self, line, i, hashes):
        """Index after the string that starts before `i`, interpolations included."""
        closing = '"' + hashes
        escape = "\\" + hashes
        while i < len(line):
            if line.startswith(escape + "(", i):
                # An interpolation: code up to the matching parenthesis.
                i += len(escape) + 1
                depth = 1
                while i < len(line) and depth:
                    if line[i] == '"':
                        i = self.skip_string(line, i + 1, "")
                        continue
                    if line[i] == "(":
                        depth += 1
                    elif line[i] == ")":
                        depth -= 1
                    i += 1
                continue
            if line.startswith(escape, i):
                i += len(escape) + 1
                continue
            if line.startswith(closing, i):
                return i + len(closing)
            i += 1
        return i


def chunks(lines):
    """Cuts a block into top-level chunks: (offset of the first line, lines)."""
    scanner = Scanner()
    result = []
    previous = ""
    conditionals = 0  # depth of `#if` blocks: their lines stay in one chunk
    for offset, line in enumerate(lines):
        at_top = scanner.depth == 0 and not scanner.in_block_comment and scanner.multiline is None
        stripped = line.strip()
        inside_conditional = conditionals > 0
        if at_top and re.match(r"#if\b", stripped):
            conditionals += 1
        elif at_top and conditionals and re.match(r"#endif\b", stripped):
            conditionals -= 1
        continues = (
            inside_conditional
            or not at_top
            or CONTINUATION_START.match(line)
            or CONTINUATION_END.search(strip_comment(previous))
        )
        if result and (continues or not stripped):
            result[-1][1].append(line)
        elif stripped:
            result.append((offset, [line]))
        scanner.feed(line)
        if stripped:
            previous = line
    # A chunk of only comments or attributes belongs to the chunk after it.
    merged = []
    pending = None
    for offset, chunk in result:
        if pending is not None:
            offset, chunk = pending[0], pending[1] + chunk
            pending = None
        meaningful = [l for l in chunk if l.strip() and not l.strip().startswith("//")]
        if not meaningful or all(re.match(r"^\s*@\w+(\(.*\))?\s*$", l) for l in meaningful):
            pending = (offset, chunk)
            continue
        merged.append((offset, chunk))
    if pending is not None:
        merged.append(pending)
    return merged


def strip_comment(line):
    """The line without a trailing `//` comment (good enough to spot a trailing operator)."""
    scanner_free = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    index = scanner_free.find("//")
    return scanner_free[:index] if index >= 0 else scanner_free


def is_declaration(chunk):
    """Whether a chunk belongs at file scope."""
    for line in chunk:
        stripped = line.strip()
        if not stripped or stripped.startswith("//"):
            continue
        if re.match(r"#if\b", stripped):
            return True
        # Attributes (@Test, @MainActor, @available(...)) and modifiers come first.
        stripped = re.sub(r"^(@\w+(\([^)]*\))?\s*)+", "", stripped)
        words = re.findall(r"[A-Za-z_]+", stripped.split("{")[0].split("(")[0])
        for word in words:
            if word in MODIFIERS:
                continue
            return word in DECLARATION_KEYWORDS
        if stripped:
            return False
    return False


def is_manifest(lines):
    return any(re.match(r"\s*import\s+PackageDescription\b", line) for line in lines)


def is_dependency_list(lines):
    code = [l.strip() for l in lines if l.strip() and not l.strip().startswith("//")]
    return bool(code) and code[0].startswith(".package(")


def render_manifests(markdown_path, display_path):
    """(file suffix, source) for every Package.swift sample of a Markdown file."""
    with open(markdown_path, encoding="utf-8") as handle:
        text = handle.read()
    files = []
    dependencies = []
    for number, (start, lines) in enumerate(code_blocks(text), start=1):
        location = f'#sourceLocation(file: "{display_path}", line: {start})'
        if is_manifest(lines):
            files.append((f"manifest{number}", "\n".join([location] + lines) + "\n"))
        elif is_dependency_list(lines):
            body = "\n".join(lines).rstrip().rstrip(",")
            # The array's first line stands on the line of the fence, so the block's lines keep
            # theirs.
            location = f'#sourceLocation(file: "{display_path}", line: {start - 1})'
            dependencies.append(
                f"{location}\nlet dependencies{number}: [Package.Dependency] = [\n{body}\n]\n"
                "#sourceLocation()"
            )
    if dependencies:
        files.append(("dependencies", "import PackageDescription\n\n" + "\n".join(dependencies) + "\n"))
    return files


def render(markdown_path, display_path):
    with open(markdown_path, encoding="utf-8") as handle:
        text = handle.read()
    imports = []
    file_scope = []
    functions = []
    count = 0
    for start, lines in code_blocks(text):
        count += 1
        if is_manifest(lines) or is_dependency_list(lines):
            continue
        statements = []
        for offset, chunk in chunks(lines):
            location = f'#sourceLocation(file: "{display_path}", line: {start + offset})'
            first = next((l.strip() for l in chunk if l.strip()), "")
            if first.startswith("import ") and all(
                l.strip().startswith("import ") or not l.strip() for l in chunk
            ):
                imports.extend(l.strip() for l in chunk if l.strip())
            elif is_declaration(chunk):
                file_scope.append("\n".join([location] + chunk + ["#sourceLocation()"]))
            else:
                statements.append("\n".join([location] + chunk + ["#sourceLocation()"]))
        if statements:
            functions.append(
                f"func sample_{count}() async throws {{\n" + "\n".join(statements) + "\n}"
            )
    modules = list(DEFAULT_IMPORTS)
    if "XCTAssert" in text:
        modules.append("XCTest")
    header = [f"import {name}" for name in modules]
    # On Linux, URLSession itself lives in FoundationNetworking.
    header += ["#if canImport(FoundationNetworking)", "import FoundationNetworking", "#endif"]
    # And XMLParser in FoundationXML (see CustomFormats.md).
    header += ["#if canImport(FoundationXML)", "import FoundationXML", "#endif"]
    for line in imports:
        if line not in header:
            header.append(line)
    source = "\n".join(
        [f"// Generated from {display_path} by scripts/doc_samples.py; do not edit.", ""]
        + header
        + [""]
        + file_scope
        + functions
    )
    return source + "\n", count


def fenced_lines(path):
    """Yields (line number, text) for every line inside a fenced code block of a Markdown file,
    or of a `///` doc comment of a Swift file (without the `///` and one space)."""
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    swift = path.endswith(".swift")
    fence = None
    checked = False
    for number, line in enumerate(lines, start=1):
        if swift:
            match = re.match(r"^\s*///( ?)(.*)$", line)
            if not match:
                fence = None
                continue
            line = match.group(2)
        opening = re.match(r"^\s*(`{3,}|~{3,})\s*([^\s`]*)", line)
        if fence is None:
            if opening:
                fence = opening.group(1)
                # Swift code and plain text; shell commands are not samples.
                checked = swift or opening.group(2) == "" or opening.group(2).startswith("swift")
            continue
        if re.match(r"^\s*" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}\s*$", line):
            fence = None
            continue
        if checked:
            yield number, line


def check_width(columns, paths):
    wide = 0
    for path in paths:
        for number, line in fenced_lines(path):
            if len(line) > columns:
                wide += 1
                print(f"{os.path.relpath(path)}:{number}: {len(line)} columns (at most {columns})")
    return wide


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--check-width":
        sys.exit(1 if check_width(int(sys.argv[2]), sys.argv[3:]) else 0)
    if len(sys.argv) < 3:
        sys.exit("usage: doc_samples.py OUT_DIR FILE.md... | --check-width COLUMNS FILE...")
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    for path in sys.argv[2:]:
        name = os.path.splitext(os.path.basename(path))[0]
        source, count = render(path, os.path.relpath(path))
        if count > 0:
            out = os.path.join(out_dir, name + ".samples.swift")
            with open(out, "w", encoding="utf-8") as handle:
                handle.write(source)
            print(f"{name}\t{count}\t{out}\tsamples")
        for suffix, manifest in render_manifests(path, os.path.relpath(path)):
            out = os.path.join(out_dir, f"{name}.{suffix}.swift")
            with open(out, "w", encoding="utf-8") as handle:
                handle.write(manifest)
            print(f"{name}.{suffix}\t1\t{out}\tmanifest")


if __name__ == "__main__":
    main()
