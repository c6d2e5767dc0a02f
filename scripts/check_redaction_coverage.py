#!/usr/bin/env python3
"""Fails when a public type that stores a secret-bearing value escapes the secret sweeps.

    scripts/check_redaction_coverage.py [--list]

Reads Sources/**/*.swift. A type *carries secrets* when one of its stored properties (or an
enum case's associated values) has a type that names `URL`, `HTTPRequest`, `HTTPResponse`,
`HTTPFields`, `HTTPBody` or a credential (`TokenProvider`, `ClientCertificate`, a property named
like a token, password, secret or credential), or names another type of the package that
carries secrets. Every public type that carries secrets must

  1. have a `customMirror` (in its body or an extension), so `dump(_:)` and `po` show the
     redacted form, and
  2. be named in a sweep list: the first string of a tuple, `("Name", value, …)` or
     `("Name (variant)", …)`, in one of SWEEP_FILES, whose tests build the value with canary
     secrets and check its description and mirror,

unless scripts/redaction-coverage-exempt.txt names it with a reason. `--list` prints the types
that carry secrets and where each is covered.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ROOT / "Sources"
EXEMPT_FILE = ROOT / "scripts" / "redaction-coverage-exempt.txt"
SWEEP_FILES = [
    "Tests/EndpointCoreTests/Middleware/SecretSweepTests.swift",
    "Tests/EndpointTestingTests/SecretSweepTests.swift",
    "Tests/EndpointTransportTests/SecretTransportTests.swift",
]

# Values shown as they are by reflection: the type storing one needs a redacting customMirror.
RAW_TYPES = {"URL", "TokenProvider"}
# Values whose own customMirror hides their secrets: the type storing one needs a sweep entry,
# which proves that it shows them only that way.
SHOWN_TYPES = {"HTTPRequest", "HTTPResponse", "HTTPFields", "HTTPBody", "ClientCertificate"}
CREDENTIAL_NAME = re.compile(r"(token|password|passphrase|secret|credential)", re.IGNORECASE)

TYPE_DECL = re.compile(
    r"^(?P<mods>(?:@\w+(?:\([^)]*\))?\s+|(?:public|open|package|internal|private|fileprivate"
    r"|final|indirect|nonisolated)\s+)*)(?P<kind>struct|class|enum|actor|extension|protocol)\s+"
    r"(?P<name>[A-Za-z_][\w.]*)")
STORED = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+|(?:public|open|package|internal|private|fileprivate"
    r"|final|nonisolated|weak|unowned|lazy)(?:\(set\))?\s+)*(?P<static>static\s+|class\s+)?"
    r"(?:let|var)\s+(?P<name>\w+)\s*:\s*(?P<type>[^={]+?)\s*(?P<rest>[={].*)?$")
CASE = re.compile(r"^(?:indirect\s+)?case\s+(?P<body>.*)$")


def strip(text):
    """Swift text without comments and string literal contents (so braces in them don't count),
    every newline kept so line numbers stay right."""
    out = []
    i, n = 0, len(text)

    def skip(j):
        out.append("\n" * text.count("\n", i, j))
        return j

    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = skip(n if j < 0 else j + 2)
        elif text[i] == '"' or (text[i] == "#" and re.match(r'#+"', text[i:i + 8])):
            hashes = len(text[i:]) - len(text[i:].lstrip("#"))
            start = i + hashes
            if text.startswith('"""', start):
                close = '"""' + "#" * hashes
                j = text.find(close, start + 3)
                j = n if j < 0 else j + len(close)
            else:
                close = '"' + "#" * hashes
                j = start + 1
                while j < n and not text.startswith(close, j) and text[j] != "\n":
                    j += 2 if text[j] == "\\" and hashes == 0 else 1
                j = min(n, j + len(close)) if j < n and text[j] != "\n" else j
            out.append('""')
            i = skip(j)
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


class TypeInfo:
    def __init__(self, name, kind, public, path, line):
        self.name, self.kind, self.public = name, kind, public
        self.path, self.line = path, line
        self.stored = []  # (property name, type text)
        self.mirror = False


def parse(types, extensions_with_mirror):
    for path in sorted(SOURCES.rglob("*.swift")):
        text = strip(path.read_text(encoding="utf-8"))
        stack = []  # (qualified name or None, kind, public, depth of its body)
        depth = 0
        pending = None
        for number, raw in enumerate(text.split("\n"), 1):
            line = raw.strip()
            owner = stack[-1] if stack and stack[-1][3] == depth else None
            match = TYPE_DECL.match(line)
            if match and match["name"] not in ("func", "var", "let", "subscript"):
                name = match["name"]
                kind = match["kind"]
                if kind == "extension":
                    qualified = name
                    public = True
                else:
                    outer = owner[0] if owner else None
                    qualified = f"{outer}.{name}" if outer else name
                    mods = match["mods"]
                    public = ("public" in mods or "open" in mods) and (
                        owner is None or owner[2] or owner[1] == "extension")
                    if kind != "protocol" and qualified not in types:
                        types[qualified] = TypeInfo(
                            qualified, kind, public, path.relative_to(ROOT), number)
                pending = (qualified, kind, public)
                # A body on the declaration's line: `public enum E { case a(URL), b }`.
                body = line.partition("{")[2]
                info = types.get(qualified)
                if info is not None and body:
                    if kind == "enum" and re.search(r"\bcase\b[^}]*\(", body):
                        info.stored.append(("case", body))
                    for prop, type_text in re.findall(
                            r"\b(?:let|var)\s+(\w+)\s*:\s*([^;{}=]+)", body):
                        if "->" not in type_text and "static" not in body:
                            info.stored.append((prop, type_text))
            elif owner and owner[1] != "protocol":
                info = types.get(owner[0])
                stored = STORED.match(line)
                case = CASE.match(line)
                if stored and not stored["static"]:
                    rest = stored["rest"] or ""
                    computed = rest.startswith("{") and not re.search(r"\b(didSet|willSet)\b", rest)
                    # A closure's captures are not shown by reflection; its type is not data.
                    closure = "->" in stored["type"]
                    if not computed and not closure and info is not None:
                        info.stored.append((stored["name"], stored["type"]))
                elif case and info is not None and info.kind == "enum" and "(" in line:
                    info.stored.append(("case", case["body"]))
                if re.search(r"\bvar\s+customMirror\b", line):
                    if info is not None:
                        info.mirror = True
                    else:
                        extensions_with_mirror.add(owner[0])
            if pending and "{" not in raw and (line.endswith("}") or not line):
                pending = None
            for char in raw:
                if char == "{":
                    depth += 1
                    if pending:
                        stack.append((pending[0], pending[1], pending[2], depth))
                        pending = None
                elif char == "}":
                    if stack and stack[-1][3] == depth:
                        stack.pop()
                    depth -= 1


def words(type_text):
    return set(re.findall(r"[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*", type_text))


def resolve(word, scope, types):
    """The package type `word` names inside type `scope`, as Swift's lookup would find it."""
    parts = scope.split(".")
    for end in range(len(parts), -1, -1):
        candidate = ".".join(parts[:end] + [word])
        if candidate in types:
            return candidate
    return None


def carries_secrets(types):
    """Type name → the reason it carries secrets, found to a fixed point. A type carries secrets
    when it stores a value of a secret-bearing type, a credential, or a value of a type that
    carries secrets and has no customMirror of its own (a type with one shows it redacted)."""
    reasons = {}  # name -> (reason, needs a customMirror)
    changed = True
    while changed:
        changed = False
        for name, info in types.items():
            if name in reasons:
                continue
            found, raw = None, False
            for prop, type_text in info.stored:
                for word in words(type_text):
                    last = word.split(".")[-1]
                    inner = resolve(word, name, types)
                    if last in RAW_TYPES:
                        found, raw = f"{prop}: {last}", True
                    elif last in SHOWN_TYPES:
                        found = found or f"{prop}: {last}"
                    elif inner and inner in reasons and not types[inner].mirror:
                        found, raw = f"{prop}: {inner}", True
                    if raw:
                        break
                if (not found and prop != "case" and CREDENTIAL_NAME.search(prop)
                        and not re.search(r"Names?$", prop)
                        and re.search(r"\b(String|Data|UInt8)\b", type_text)):
                    found, raw = f"{prop} (a credential)", True
                if raw:
                    break
            if found:
                reasons[name] = (found, raw)
                changed = True
    return reasons


def sweep_names():
    names = {}
    pattern = re.compile(r'\(\s*"([A-Z][\w.]*)(?: \([^"]*\))?"\s*,')
    for relative in SWEEP_FILES:
        text = (ROOT / relative).read_text(encoding="utf-8")
        for match in pattern.finditer(text):
            names.setdefault(match[1], relative)
    return names


def exemptions():
    exempt = {}
    for number, line in enumerate(EXEMPT_FILE.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, reason = line.partition(" ")
        if not reason.strip():
            sys.exit(f"{EXEMPT_FILE.name}:{number}: {name} needs a reason")
        exempt[name] = reason.strip()
    return exempt


def main():
    types, extension_mirrors = {}, set()
    parse(types, extension_mirrors)
    for name in extension_mirrors:
        for candidate in (name, *[t for t in types if t.endswith("." + name)]):
            if candidate in types:
                types[candidate].mirror = True
    reasons = carries_secrets(types)
    swept = sweep_names()
    exempt = exemptions()
    problems = []
    listing = []
    for name in sorted(reasons):
        info = types[name]
        if not info.public:
            continue
        where = f"{info.path}:{info.line}"
        if name in exempt:
            listing.append(f"  {name:40} exempt: {exempt[name]}")
            continue
        reason, raw = reasons[name]
        if raw and not info.mirror:
            problems.append(f"{where}: {name} stores {reason} but has no customMirror")
        if name not in swept:
            problems.append(
                f"{where}: {name} stores {reason} but no secret sweep names it "
                f'(add ("{name}", value, [...]) to a list in {", ".join(SWEEP_FILES)})')
        listing.append(f"  {name:40} {swept.get(name, 'NOT SWEPT')}")
    for name in sorted(set(exempt) - {n for n in reasons if types[n].public}):
        problems.append(f"{EXEMPT_FILE.name}: {name} is exempt but is not a public type that "
                        "carries secrets (remove the line)")
    if "--list" in sys.argv:
        print("public types that carry secrets:")
        print("\n".join(listing))
    if problems:
        print("\n".join(problems), file=sys.stderr)
        print(f"redaction coverage: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    print(f"redaction coverage: ok ({len(listing)} public types that carry secrets, "
          f"{sum(1 for line in listing if 'exempt:' in line)} exempt)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
