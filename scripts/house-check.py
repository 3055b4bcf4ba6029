#!/usr/bin/env python3
"""The house rules of src/, measured (run by scripts/house-check.sh, which .ci/run calls).

Two rules; the script prints what it measured and exits 1 naming every violation. Its own
tests (scripts/test_house_check.py: a tiny fake crate per case, each rule shown to report
what it must and to stay quiet where it must) run first, from scripts/house-check.sh.

1. **File size: a ceiling, not a target.** No file in src/ holds more than MAX_LINES
   (1,200) lines of non-test code. The number is a ceiling for one concept in one longer
   file, not a size to aim at or to cut to: a file is split when it holds two concepts,
   along the line between them, never by moving code whole to get under the number. A
   file's non-test lines are its lines (as `wc -l` counts them: comments and blank lines
   included) outside its `#[cfg(test)]` modules, from the attribute's line to the
   module's closing brace. A file that is itself a test module (declared by
   `#[cfg(test)] mod tests;`, or any file below one) is all test code. A `.rs` file under
   src/ that no `mod` declares is reported too.

2. **No file circles.** The crate (src/lib.rs) and the binary (src/main.rs) are read as
   trees of modules (`mod x;` files and inline `mod x { .. }` blocks; test modules and
   other `#[cfg(test)]` items left out). A file *depends on* a module when its non-test
   code names an item there: a `use` path, or an inline `crate::`, `super::` or `self::`
   path. A path is followed through re-exports (`pub use`, and the private `use` a child
   reaches through `super::`) to the module that defines the item, so a child naming
   `super::Item` that its parent re-exports from a sibling depends on that sibling.

   Containment is not dependence: a module and its own descendants (a `mod.rs` and the
   files below it, either way round) are one unit made of parts, the parent declaring
   the children whose items it uses and the children building on the parent's types;
   those references are left out. Every other dependency is lifted to the level where
   the two files part: a file in `retro/solver/` naming an item of `retro/checkpoint.rs`
   is an edge `solver -> checkpoint` between the two children of `retro`. A *circle* is
   a cycle among the children of one module in these lifted edges: two sibling files (or
   folders) each depending on the other, directly or around a longer ring. Such a ring
   has no order in which its files can be read, tested or moved one at a time; the fix
   is to move what both need into the lower one or into a new small module they share.

   What the scan does not see: a `#[macro_export]` macro lives at the crate root (an
   ancestor of every module), so naming one is no dependency; a method called on a value
   (`x.f()`, `Self::f`) is seen only through the `use` of its type or trait, which a file
   naming another module's items normally has.

(Public functions are not counted here: the compiler's `unreachable_pub` lint, denied in
CI, and the facade src/lib.rs keep what is `pub` honest.)

Usage: scripts/house-check.py [--root DIR] [--sizes N] [--edges]
  --root DIR  the crate to check (DIR/src/lib.rs and/or DIR/src/main.rs); default: this repo
  --sizes N   also print the N largest files by non-test lines
  --edges     also print every lifted dependency edge
"""

import argparse
import os
import re
import sys

MAX_LINES = 1200


# ---------------------------------------------------------------- reading Rust text


def code_only(text):
    """`text` with comments and the insides of string and char literals blanked to spaces.

    The result has the same length and the same line breaks, so offsets still give
    line numbers.
    """
    out = list(text)
    n = len(text)
    i = 0

    def blank(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "/":
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif c == "/" and i + 1 < n and text[i + 1] == "*":
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:i + 40]) and (i == 0 or not is_ident(text[i - 1])):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            end = n if end < 0 else end + 1 + len(hashes)
            blank(i + 1, end)
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            blank(i + 1, j)
            i = j + 1
        elif c == "'":
            # A char literal ('x', '\n', '\u{..}', '"'), not a lifetime ('a).
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'\n])'", text[i:i + 12])
            if m:
                blank(i + 1, i + len(m.group(0)) - 1)
                i += len(m.group(0))
            else:
                i += 1
        else:
            i += 1
    return "".join(out)


def is_ident(c):
    return c.isalnum() or c == "_"


TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|::|\S")


def tokens(code):
    """(offset, token) pairs: identifiers, `::` and single punctuation characters."""
    return [(m.start(), m.group(0)) for m in TOKEN.finditer(code)]


def match_close(code, i, open_c, close_c):
    """The offset just past the bracket closing the one at `i`."""
    depth = 0
    for j in range(i, len(code)):
        if code[j] == open_c:
            depth += 1
        elif code[j] == close_c:
            depth -= 1
            if depth == 0:
                return j + 1
    return len(code)


def item_end(code, i):
    """The end of the item starting at `i`: past its first `;` at depth 0, or past the
    block its first `{` opens."""
    depth = 0
    for j in range(i, len(code)):
        c = code[j]
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == ";" and depth == 0:
            return j + 1
        elif c == "{" and depth == 0:
            return match_close(code, j, "{", "}")
    return len(code)


def skip_attributes(code, i):
    while True:
        while i < len(code) and code[i].isspace():
            i += 1
        if code.startswith("#[", i):
            i = match_close(code, i + 1, "[", "]")
        else:
            return i


MOD_HEAD = re.compile(r"(?:pub(?:\s*\([^)]*\))?\s+)?mod\s+([A-Za-z_][A-Za-z0-9_]*)\s*([;{])")


def test_items(code):
    """Spans (attribute start, item end, module name or None) of the `#[cfg(test)]` items."""
    out = []
    for m in re.finditer(r"#\[\s*cfg\s*\(\s*test\s*\)\s*\]", code):
        start = skip_attributes(code, m.end())
        end = item_end(code, start)
        head = MOD_HEAD.match(code, start)
        out.append((m.start(), end, head.group(1) if head else None))
    return out


def inside(spans, at):
    return any(a <= at < b for a, b, *_ in spans)


def line_of(text, at):
    return text.count("\n", 0, at) + 1


# ---------------------------------------------------------------- use trees


def parse_use_tree(toks, k):
    """Parse the use tree starting at token `k`: ([(segments, bound name)], next k).

    `a::b::{c, d as e, self, f::*}` gives ([a,b,c], c), ([a,b,d], e), ([a,b], b),
    ([a,b,f,*], None).
    """
    out = []
    prefix = []
    while k < len(toks):
        t = toks[k][1]
        if t == "{":
            k += 1
            while k < len(toks) and toks[k][1] != "}":
                if toks[k][1] == ",":
                    k += 1
                    continue
                inner, k2 = parse_use_tree(toks, k)
                for segs, name in inner:
                    if segs == ["self"]:
                        out.append((list(prefix), prefix[-1] if prefix else None))
                    else:
                        out.append((prefix + segs, name))
                k = k2 if k2 > k else k + 1
            return out, k + 1
        if t == "*":
            out.append((prefix + ["*"], None))
            return out, k + 1
        if not (t[0].isalpha() or t[0] == "_"):
            return out, k
        prefix.append(t)
        k += 1
        if k < len(toks) and toks[k][1] == "::":
            k += 1
            continue
        name = prefix[-1]
        if k + 1 < len(toks) and toks[k][1] == "as":
            name = toks[k + 1][1]
            k += 2
        out.append((prefix, name))
        return out, k
    return out, k


def use_statements(code, toks, skip):
    """(offset, segments, bound name) of every `use` in `code` outside the `skip` spans
    (`use` is a keyword: with comments and strings blanked, every `use` token starts one)."""
    out = []
    for k, (at, t) in enumerate(toks):
        if t != "use" or inside(skip, at) or (k and toks[k - 1][1] == "#"):
            continue
        trees, _ = parse_use_tree(toks, k + 1)
        out.extend((at, segs, name) for segs, name in trees)
    return out


def inline_paths(toks, skip, use_spans):
    """(offset, segments) of paths starting with `crate::`, `super::` or `self::` outside
    `use` statements and the `skip` spans."""
    out = []
    k = 0
    while k < len(toks):
        at, t = toks[k]
        if (
            t in ("crate", "super", "self")
            and k + 1 < len(toks)
            and toks[k + 1][1] == "::"
            and not (k and toks[k - 1][1] in ("::", "$"))
            and not inside(skip, at)
            and not inside(use_spans, at)
        ):
            segs = [t]
            j = k + 1
            while j + 1 < len(toks) and toks[j][1] == "::" and is_ident(toks[j + 1][1][0]):
                segs.append(toks[j + 1][1])
                j += 2
            out.append((at, segs))
            k = j
        else:
            k += 1
    return out


# ---------------------------------------------------------------- the module trees


class Node:
    def __init__(self, path, file, span=None):
        self.path = path  # tuple: ("lib", "retro", "solver") or ("bin", "cli", "bench")
        self.file = file  # the file that holds it
        self.span = span  # (start, end) of an inline module's block, None for a file's own
        self.uses = {}  # bound name -> (segments, offset)
        self.children = set()


class House:
    def __init__(self, root):
        self.root = root
        self.src = os.path.join(root, "src")
        self.nodes = {}
        self.files = {}  # rel file -> dict(text, code, toks, test spans, is_test, node path)

    def rel(self, path):
        return os.path.relpath(path, self.root)

    def load(self, path, modpath, is_test):
        """Read the file of module `modpath` and the modules it declares."""
        rel = self.rel(path)
        text = open(path, encoding="utf-8").read()
        code = code_only(text)
        toks = tokens(code)
        tests = test_items(code)
        info = dict(text=text, code=code, toks=toks, tests=tests, is_test=is_test, node=modpath)
        self.files[rel] = info
        if not is_test:
            self.nodes[modpath] = Node(modpath, rel)
            if len(modpath) > 1:
                self.nodes[modpath[:-1]].children.add(modpath[-1])
        base = os.path.basename(path)
        if base in ("mod.rs", "lib.rs", "main.rs"):
            child_dir = os.path.dirname(path)
        else:
            child_dir = path[:-3]
        # inline modules and `mod x;` declarations, with the inline module they sit in
        inline = []
        for m in MOD_HEAD.finditer(code):
            if m.start() and is_ident(code[m.start() - 1]):
                continue
            name, kind = m.group(1), m.group(2)
            test_here = is_test or inside(tests, m.start())
            outer = [s for s in inline if s[1] <= m.start() < s[2]]
            parent = outer[-1][0] if outer else modpath
            if kind == "{":
                end = match_close(code, m.end() - 1, "{", "}")
                child = parent + (name,)
                inline.append((child, m.start(), end))
                if not test_here:
                    node = Node(child, rel, (m.end(), end - 1))
                    self.nodes[child] = node
                    self.nodes[parent].children.add(name)
            else:
                sub_dir = os.path.join(child_dir, *parent[len(modpath):])
                for cand in (os.path.join(sub_dir, name + ".rs"), os.path.join(sub_dir, name, "mod.rs")):
                    if os.path.exists(cand):
                        self.load(cand, parent + (name,), test_here)
                        break
                else:
                    raise SystemExit(f"house-check: {rel}: `mod {name};` has no file")
        if not is_test:
            self.read_uses(rel, inline)

    def read_uses(self, rel, inline):
        info = self.files[rel]
        code, toks, tests = info["code"], info["toks"], info["tests"]
        modpath = info["node"]
        stmts = use_statements(code, toks, tests)
        for at, segs, name in stmts:
            node = self.node_at(modpath, inline, at)
            if name and segs[-1] != "*":
                self.nodes[node].uses[name] = (segs, at)
        info["inline"] = inline
        info["use_stmts"] = stmts
        use_spans = [(at, item_end(code, at)) for at in sorted({at for at, _, _ in stmts})]
        info["paths"] = [(at, segs) for at, segs, _ in stmts] + inline_paths(toks, tests, use_spans)

    @staticmethod
    def node_at(modpath, inline, at):
        inner = [s for s in inline if s[1] <= at < s[2]]
        return inner[-1][0] if inner else modpath

    def resolve(self, context, segs, seen=None):
        """The node that defines the item `segs` names from module `context`, or None
        for an outside crate."""
        seen = seen or set()
        key = (context, tuple(segs))
        if key in seen:
            return None
        seen.add(key)
        crate = (context[0],)
        if segs[0] == "crate":
            cur, rest = crate, segs[1:]
        elif segs[0] in ("self", "super"):
            cur, rest = context, list(segs)
            while rest and rest[0] in ("self", "super"):
                if rest[0] == "super":
                    cur = cur[:-1]
                rest = rest[1:]
        elif segs[0] in self.nodes[context].children:
            cur, rest = context, list(segs)
        elif segs[0] in self.nodes[context].uses and self.nodes[context].uses[segs[0]][0] != segs:
            first = self.resolve(context, self.nodes[context].uses[segs[0]][0], seen)
            if first is None:
                return None
            cur, rest = first, segs[1:]
        else:
            return None  # std, an outside crate (huntsolve:: from the binary) or a prelude name
        for i, seg in enumerate(rest):
            if seg == "*":
                return cur
            if seg in self.nodes[cur].children:
                cur = cur + (seg,)
                continue
            use = self.nodes[cur].uses.get(seg)
            if use is not None:
                target = self.resolve(cur, use[0] + rest[i + 1:], seen)
                return target if target is not None else cur
            return cur
        return cur

    def file_of(self, node):
        return self.nodes[node].file

    def edges(self):
        """Lifted edges: {(parent, a, b): [(file, line, path text, target file)]}."""
        out = {}
        for rel, info in sorted(self.files.items()):
            if info["is_test"]:
                continue
            for at, segs in info["paths"]:
                context = self.node_at(info["node"], info["inline"], at)
                target = self.resolve(context, segs)
                if target is None:
                    continue
                src_file_node = info["node"]
                dst_file_node = self.file_node(target)
                if dst_file_node == src_file_node:
                    continue
                a, b = src_file_node, dst_file_node
                common = 0
                while common < min(len(a), len(b)) and a[common] == b[common]:
                    common += 1
                if common == len(a) or common == len(b):
                    continue  # a module and its own descendant: containment
                parent = a[:common]
                key = (parent, a[common], b[common])
                out.setdefault(key, []).append(
                    (rel, line_of(info["text"], at), "::".join(segs), self.file_of(dst_file_node))
                )
        return out

    def file_node(self, node):
        """The node of the file that holds `node` (an inline module belongs to its file)."""
        while self.nodes[node].span is not None:
            node = node[:-1]
        return node

    def display(self, parent, child):
        node = parent + (child,)
        f = self.file_of(node)
        if f.endswith("/mod.rs"):
            return f[: -len("mod.rs")]
        return f


def cycles(edges):
    """Strongly connected components of more than one vertex (Tarjan), per parent."""
    by_parent = {}
    for (parent, a, b) in edges:
        by_parent.setdefault(parent, {}).setdefault(a, set()).add(b)
    found = []
    for parent, graph in sorted(by_parent.items()):
        index, low, stack, on, comps = {}, {}, [], set(), []
        counter = [0]

        def strong(v):
            index[v] = low[v] = counter[0]
            counter[0] += 1
            stack.append(v)
            on.add(v)
            for w in sorted(graph.get(v, ())):
                if w not in index:
                    strong(w)
                    low[v] = min(low[v], low[w])
                elif w in on:
                    low[v] = min(low[v], index[w])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    comps.append(sorted(comp))

        for v in sorted(set(graph) | {w for ws in graph.values() for w in ws}):
            if v not in index:
                strong(v)
        found.extend((parent, comp) for comp in comps)
    return found


# ---------------------------------------------------------------- the two rules


def line_count(text):
    """Lines as `wc -l` counts them, plus a last line without its newline."""
    return text.count("\n") + (0 if text.endswith("\n") or not text else 1)


def non_test_lines(info):
    if info["is_test"]:
        return 0
    text = info["text"]
    total = line_count(text)
    test_lines = set()
    for a, b, name in info["tests"]:
        if name is None:
            continue
        test_lines.update(range(line_of(text, a), line_of(text, max(a, b - 1)) + 1))
    return total - len(test_lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--sizes", type=int, default=0)
    ap.add_argument("--edges", action="store_true")
    args = ap.parse_args()
    root = os.path.normpath(args.root)
    house = House(root)
    roots = [(crate, os.path.join(house.src, name)) for crate, name in (("lib", "lib.rs"), ("bin", "main.rs"))]
    roots = [(crate, path) for crate, path in roots if os.path.exists(path)]
    if not roots:
        raise SystemExit(f"house-check: neither {house.src}/lib.rs nor {house.src}/main.rs exists")
    for crate, path in roots:
        house.load(path, (crate,), False)
    failures = []

    # 1. sizes
    sizes = []
    for d, _, names in os.walk(house.src):
        for f in names:
            if not f.endswith(".rs"):
                continue
            rel = house.rel(os.path.join(d, f))
            if rel not in house.files:
                failures.append(f"{rel}: a file under src/ that no `mod` declares")
                continue
            sizes.append((non_test_lines(house.files[rel]), rel))
    sizes.sort(key=lambda s: (-s[0], s[1]))
    over = [(n, rel) for n, rel in sizes if n > MAX_LINES]
    print(f"file sizes: {len(sizes)} files, largest {sizes[0][1]} with {sizes[0][0]} non-test lines (ceiling {MAX_LINES})")
    for n, rel in sizes[: args.sizes]:
        print(f"  {n:5}  {rel}")
    for n, rel in over:
        total = line_count(house.files[rel]["text"])
        failures.append(f"{rel}: {n} lines of non-test code ({total} in all), over the ceiling of {MAX_LINES}")

    # 2. circles
    edges = house.edges()
    if args.edges:
        for (parent, a, b), refs in sorted(edges.items()):
            print(f"  {house.display(parent, a)} -> {house.display(parent, b)}  ({refs[0][0]}:{refs[0][1]} {refs[0][2]})")
    rings = cycles(edges)
    print(f"file circles: {len(house.nodes)} modules, {len(edges)} dependencies between siblings, {len(rings)} circle(s)")
    for parent, comp in rings:
        names = [house.display(parent, c) for c in comp]
        lines = [f"circle among {', '.join(names)}:"]
        for a in comp:
            for b in comp:
                refs = edges.get((parent, a, b))
                if refs:
                    shown = "; ".join(f"{r[0]}:{r[1]} {r[2]}" for r in refs[:2])
                    more = f" (+{len(refs) - 2} more)" if len(refs) > 2 else ""
                    lines.append(f"    {house.display(parent, a)} uses {house.display(parent, b)}: {shown}{more}")
        failures.append("\n".join(lines))

    if failures:
        print(f"\nhouse-check: {len(failures)} violation(s) of the house rules (scripts/house-check.py says how each is measured):")
        for f in failures:
            print(f"  {f}")
        return 1
    print("house-check: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
