#!/usr/bin/env python3
"""Do the house check's tests bite? Each mutation below is a one-line change that disables
(or loosens) part of a rule in scripts/house-check.py; this applies each to a temporary copy,
runs scripts/test_house_check.py on the copy (HOUSE_CHECK=copy) and says which tests caught
it. Exits 1 if a mutation survives (no test failed) or no longer applies (its line changed:
update the mutation). Not run by CI (about a minute); run it after changing the checker.

  python3 scripts/house-check-mutants.py [-v] [NAME ...]
"""

import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "house-check.py")
TESTS = os.path.join(HERE, "test_house_check.py")

# (name, the exact text in house-check.py, its replacement)
M = [
    ("cycle finder returns no cycles", "        found.extend((parent, comp) for comp in comps)\n", "        pass\n"),
    ("two-file circles dropped (SCC size > 2)", "                if len(comp) > 1:\n", "                if len(comp) > 2:\n"),
    ("circles found but not failed", '        failures.append("\\n".join(lines))\n', "        pass\n"),
    ("containment not skipped", "                if common == len(a) or common == len(b):\n", "                if False:\n"),
    ("no lifting (cross-level edges dropped)", "                parent = a[:common]\n", "                parent = a[:common]\n                if len(a) != len(b): continue\n"),
    ("re-exports not followed", "                target = self.resolve(cur, use[0] + rest[i + 1:], seen)\n", "                target = None\n"),
    ("use-bound first segment not followed", "        elif segs[0] in self.nodes[context].uses and self.nodes[context].uses[segs[0]][0] != segs:\n", "        elif False:\n"),
    ("inline paths ignored", '        info["paths"] = [(at, segs) for at, segs, _ in stmts] + inline_paths(toks, tests, use_spans)\n', '        info["paths"] = [(at, segs) for at, segs, _ in stmts]\n'),
    ("use statements ignored", '        if t != "use" or inside(skip, at) or (k and toks[k - 1][1] == "#"):\n', '        if True:\n'),
    ("test code's uses counted", '        if t != "use" or inside(skip, at) or (k and toks[k - 1][1] == "#"):\n', '        if t != "use" or (k and toks[k - 1][1] == "#"):\n'),
    ("test code's inline paths counted", "            and not inside(skip, at)\n", ""),
    ("test items not found", "    out = []\n    for m in re.finditer(r\"#\\[\\s*cfg\\s*\\(\\s*test\\s*\\)\\s*\\]\", code):\n", "    out = []\n    for m in []:\n"),
    ("test module files read as code", "                        self.load(cand, parent + (name,), test_here)\n", "                        self.load(cand, parent + (name,), False)\n"),
    ("line comments not blanked", "            blank(i, j)\n            i = j\n        elif c == \"/\" and i + 1 < n and text[i + 1] == \"*\":\n", "            i = j\n        elif c == \"/\" and i + 1 < n and text[i + 1] == \"*\":\n"),
    ("block comments not nested", "                if text.startswith(\"/*\", j):\n", "                if False:\n"),
    ("strings not blanked", "            blank(i + 1, j)\n            i = j + 1\n", "            i = j + 1\n"),
    ("raw strings not blanked", "            blank(i + 1, end)\n", "            pass\n"),
    ("$crate:: counted", '            and not (k and toks[k - 1][1] in ("::", "$"))\n', '            and not (k and toks[k - 1][1] in ("::",))\n'),
    ("size check skipped", "    over = [(n, rel) for n, rel in sizes if n > MAX_LINES]\n", "    over = []\n"),
    ("size off by one (>=)", "    over = [(n, rel) for n, rel in sizes if n > MAX_LINES]\n", "    over = [(n, rel) for n, rel in sizes if n >= MAX_LINES]\n"),
    ("ceiling back to 700", "MAX_LINES = 1200\n", "MAX_LINES = 700\n"),
    ("ceiling loosened to 5000", "MAX_LINES = 1200\n", "MAX_LINES = 5000\n"),
    ("test modules counted as code", "        if name is None:\n            continue\n        test_lines", "        if True:\n            continue\n        test_lines"),
    ("test module files counted", '    if info["is_test"]:\n        return 0\n    text', '    if False:\n        return 0\n    text'),
    ("last line without newline dropped", '    return text.count("\\n") + (0 if text.endswith("\\n") or not text else 1)\n', '    return text.count("\\n")\n'),
    ("undeclared files not reported", "                failures.append(f\"{rel}: a file under src/ that no `mod` declares\")\n", "                pass\n"),
    ("super:: not climbing", "                    cur = cur[:-1]\n", "                    pass\n"),
    ("main.rs not read", '("lib", "lib.rs"), ("bin", "main.rs"))]', '("lib", "lib.rs"),)]'),
    ("inline modules not nodes", "                    self.nodes[parent].children.add(name)\n", "                    pass\n"),
    ("mod x; in inline module: old dir bug", "                sub_dir = os.path.join(child_dir, *parent[len(modpath):])\n", "                sub_dir = child_dir if not outer else os.path.join(child_dir, *child[len(modpath):])\n"),
    ("exit 0 on violations", "        return 1\n    print(\"house-check: ok\")", "        return 0\n    print(\"house-check: ok\")"),
]


def main():
    args = sys.argv[1:]
    verbose = "-v" in args
    only = [a for a in args if a != "-v"]
    text = open(SRC, encoding="utf-8").read()
    bad = 0
    with tempfile.TemporaryDirectory(prefix="house-check-mutant-") as tmp:
        mutant = os.path.join(tmp, "house-check.py")
        for name, old, new in M:
            if only and name not in only:
                continue
            if text.count(old) != 1:
                print(f"STALE    {name}: its line is in house-check.py {text.count(old)} times, not once")
                bad += 1
                continue
            with open(mutant, "w", encoding="utf-8") as f:
                f.write(text.replace(old, new))
            p = subprocess.run(
                [sys.executable, TESTS], env=dict(os.environ, HOUSE_CHECK=mutant), capture_output=True, text=True
            )
            failed = sorted(set(re.findall(r"^FAIL: \S+?\.(\w+\.\w+)$", p.stderr, re.M)))
            if p.returncode == 0:
                print(f"SURVIVED {name}")
                bad += 1
            else:
                print(f"CAUGHT   {name}: {len(failed)} test(s) failed")
                if verbose:
                    for t in failed:
                        print(f"           {t}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
