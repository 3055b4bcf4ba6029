#!/usr/bin/env python3
"""Tests of scripts/house-check.py: every rule it enforces, on tiny fake crates.

Run by scripts/house-check.sh before it checks src/, so CI runs them; any failure exits 1.
Each case writes a fake crate (src/lib.rs and a few files) to a temporary directory and runs
the checker on it with `--root`, then asserts what it must report (a two-file circle, a
three-file ring, a circle through a `pub use`, between two folders, in the binary; a file
over the size ceiling; a file no `mod` declares) and what it must not (a parent and its
child using each other; test-only code; paths in comments and strings; `#[macro_export]`
macros; outside crates; a one-way chain). A few more test the reading of Rust text the
rules rely on.

  python3 scripts/test_house_check.py          # quiet: one line, or the failures
  python3 scripts/test_house_check.py -v       # each case by name
  HOUSE_CHECK=/tmp/mutant.py python3 scripts/test_house_check.py   # test another copy
"""

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKER = os.environ.get("HOUSE_CHECK", os.path.join(HERE, "house-check.py"))
CEILING = 1200  # rule 1's ceiling; a change to it is a change to this line too


def load_checker():
    sys.dont_write_bytecode = True  # no scripts/__pycache__ left behind
    spec = importlib.util.spec_from_file_location("house_check", CHECKER)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


hc = load_checker()


def crate(files):
    """A temporary crate root holding `files` ({path under src/: text}); the caller removes it."""
    root = tempfile.mkdtemp(prefix="house-check-case-")
    for rel, text in files.items():
        path = os.path.join(root, "src", rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(textwrap.dedent(text).lstrip("\n"))
    return root


def lines(n, word="x"):
    """`n` lines of non-test code."""
    return "".join(f"pub const {word.upper()}{i}: u32 = {i};\n" for i in range(n))


class Case(unittest.TestCase):
    maxDiff = None

    def run_check(self, files, *args):
        root = crate(files)
        try:
            p = subprocess.run(
                [sys.executable, CHECKER, "--root", root, *args],
                capture_output=True,
                text=True,
                timeout=60,
            )
        finally:
            shutil.rmtree(root)
        return p.returncode, p.stdout + p.stderr

    def assert_reported(self, files, *needles):
        rc, out = self.run_check(files)
        self.assertEqual(rc, 1, f"expected a violation, got exit {rc}:\n{out}")
        self.assertIn("violation(s) of the house rules", out)
        for n in needles:
            self.assertIn(n, out)
        return out

    def assert_clean(self, files, edges=None):
        rc, out = self.run_check(files)
        self.assertEqual(rc, 0, f"expected no violation, got exit {rc}:\n{out}")
        self.assertIn("0 circle(s)", out)
        self.assertIn("house-check: ok", out)
        if edges is not None:
            # the case's one-way dependencies were seen (the quiet is not blindness)
            self.assertIn(f" {edges} dependencies between siblings", out)
        return out


# ---------------------------------------------------------------- rule 2: circles reported


class CirclesReported(Case):
    def test_two_file_circle(self):
        out = self.assert_reported(
            {
                "lib.rs": "mod a;\nmod b;\n",
                "a.rs": "use crate::b::X;\npub struct Y(X);\n",
                "b.rs": "use crate::a::Y;\npub struct X;\npub fn f(_: Y) {}\n",
            },
            "circle among src/a.rs, src/b.rs:",
            "src/a.rs uses src/b.rs: src/a.rs:1 crate::b::X",
            "src/b.rs uses src/a.rs: src/b.rs:1 crate::a::Y",
            "1 circle(s)",
        )
        self.assertIn("house-check: 1 violation(s)", out)

    def test_two_file_circle_by_inline_paths(self):
        # no `use` at all: `crate::` in a body one way, `super::` in a signature the other
        self.assert_reported(
            {
                "lib.rs": "mod a;\nmod b;\n",
                "a.rs": "pub struct Y;\npub fn f() -> u32 { crate::b::g() }\n",
                "b.rs": "pub fn g() -> u32 { 1 }\npub fn h(_: super::a::Y) {}\n",
            },
            "circle among src/a.rs, src/b.rs:",
            "src/a.rs:2 crate::b::g",
            "src/b.rs:2 super::a::Y",
        )

    def test_three_file_ring(self):
        # a -> b -> c -> a, each edge a different kind of path (brace list, glob, self::super)
        out = self.assert_reported(
            {
                "lib.rs": "mod a;\nmod b;\nmod c;\n",
                "a.rs": "use crate::{b::B, b::B2};\npub struct A;\n",
                "b.rs": "use super::c::*;\npub struct B;\npub struct B2;\n",
                "c.rs": "pub struct C;\npub fn f() { let _ = self::super::a::A; }\n",
            },
            "circle among src/a.rs, src/b.rs, src/c.rs:",
            "src/a.rs uses src/b.rs",
            "src/b.rs uses src/c.rs",
            "src/c.rs uses src/a.rs",
        )
        self.assertNotIn("src/b.rs uses src/a.rs", out)

    def test_circle_through_pub_use(self):
        # a names `crate::X`, which lib.rs re-exports from b: a depends on b, and b on a
        self.assert_reported(
            {
                "lib.rs": "mod a;\nmod b;\npub use b::X;\n",
                "a.rs": "use crate::X;\npub struct Y(X);\n",
                "b.rs": "pub struct X;\npub fn f(_: crate::a::Y) {}\n",
            },
            "circle among src/a.rs, src/b.rs:",
            "src/a.rs uses src/b.rs: src/a.rs:1 crate::X",
        )

    def test_circle_through_a_re_export_chain(self):
        # a names `hub::X`; hub re-exports it through a name its own `use` binds: a -> b
        out = self.assert_reported(
            {
                "lib.rs": "mod a;\nmod b;\nmod hub;\n",
                "hub.rs": "use crate::b;\npub use b::X;\n",
                "a.rs": "use crate::hub::X;\npub struct Y(X);\n",
                "b.rs": "pub struct X;\npub fn f(_: crate::a::Y) {}\n",
            },
            "circle among src/a.rs, src/b.rs:",
            "src/a.rs uses src/b.rs: src/a.rs:1 crate::hub::X",
        )
        self.assertNotIn("src/hub.rs,", out)

    def test_circle_through_an_inline_facade(self):
        # lib.rs's inline `pub mod api { pub use .. }` (a facade) re-exports b's item
        self.assert_reported(
            {
                "lib.rs": "mod a;\nmod b;\npub mod api {\n    pub use crate::b::X;\n}\n",
                "a.rs": "use crate::api::X;\npub struct Y(X);\n",
                "b.rs": "pub struct X;\npub fn f(_: crate::a::Y) {}\n",
            },
            "circle among src/a.rs, src/b.rs:",
            "src/a.rs uses src/b.rs: src/a.rs:1 crate::api::X",
        )

    def test_circle_through_parents_private_use(self):
        # p/x.rs names `super::Thing`, which p/mod.rs (privately) takes from p/y.rs
        self.assert_reported(
            {
                "lib.rs": "mod p;\n",
                "p/mod.rs": "mod x;\nmod y;\nuse y::Thing;\n",
                "p/x.rs": "use super::Thing;\npub struct W(Thing);\n",
                "p/y.rs": "pub struct Thing;\npub fn f(_: super::x::W) {}\n",
            },
            "circle among src/p/x.rs, src/p/y.rs:",
            "src/p/x.rs uses src/p/y.rs: src/p/x.rs:1 super::Thing",
        )

    def test_circle_between_folders(self):
        # deep files of two sibling folders: lifted to the edges p -> q and q -> p
        self.assert_reported(
            {
                "lib.rs": "mod p;\nmod q;\n",
                "p/mod.rs": "pub mod deep;\n",
                "p/deep.rs": "use crate::q::inner::Z;\npub struct W(Z);\n",
                "q/mod.rs": "pub mod inner;\n",
                "q/inner/mod.rs": "pub mod leaf;\npub use leaf::Z;\n",
                "q/inner/leaf.rs": "pub struct Z;\npub fn f(_: crate::p::deep::W) {}\n",
            },
            "circle among src/p/, src/q/:",
            "src/p/ uses src/q/: src/p/deep.rs:1 crate::q::inner::Z",
            "src/q/ uses src/p/: src/q/inner/leaf.rs:2 crate::p::deep::W",
        )

    def test_circle_between_a_folder_and_a_file(self):
        self.assert_reported(
            {
                "lib.rs": "mod p;\nmod z;\n",
                "p/mod.rs": "mod deep;\n",
                "p/deep.rs": "pub struct W;\npub fn f(_: crate::z::Z) {}\n",
                "z.rs": "pub struct Z;\npub fn g(_: crate::p::deep::W) {}\n",
            },
            "circle among src/p/, src/z.rs:",
        )

    def test_circle_from_a_non_test_inline_module(self):
        # an inline `mod` block belongs to its file: its `use` is the file's dependency
        self.assert_reported(
            {
                "lib.rs": "mod a;\nmod b;\n",
                "a.rs": "pub struct Y;\nmod inner {\n    use crate::b::X;\n    pub fn f(_: X) {}\n}\n",
                "b.rs": "pub struct X;\npub fn g(_: crate::a::Y) {}\n",
            },
            "circle among src/a.rs, src/b.rs:",
            "src/a.rs:3 crate::b::X",
        )

    def test_circle_in_the_binary(self):
        self.assert_reported(
            {
                "lib.rs": "pub fn lib_only() {}\n",
                "main.rs": "mod cli;\nmod out;\nfn main() { huntsolve::lib_only() }\n",
                "cli.rs": "use crate::out::P;\npub struct Q(P);\n",
                "out.rs": "pub struct P;\npub fn f(_: super::cli::Q) {}\n",
            },
            "circle among src/cli.rs, src/out.rs:",
        )

    def test_every_circle_named(self):
        out = self.assert_reported(
            {
                "lib.rs": "mod a;\nmod b;\nmod p;\n",
                "a.rs": "pub struct A;\npub fn f(_: crate::b::B) {}\n",
                "b.rs": "pub struct B;\npub fn f(_: crate::a::A) {}\n",
                "p/mod.rs": "mod x;\nmod y;\n",
                "p/x.rs": "pub struct X;\npub fn f(_: super::y::Y) {}\n",
                "p/y.rs": "pub struct Y;\npub fn f(_: super::x::X) {}\n",
            },
            "circle among src/a.rs, src/b.rs:",
            "circle among src/p/x.rs, src/p/y.rs:",
            "2 circle(s)",
        )
        self.assertIn("house-check: 2 violation(s)", out)


# ---------------------------------------------------------------- rule 2: no false circles


class CirclesNotReported(Case):
    def test_one_way_chain(self):
        self.assert_clean(
            {
                "lib.rs": "mod a;\nmod b;\nmod c;\n",
                "a.rs": "use crate::b::B;\npub fn f(_: B) {}\n",
                "b.rs": "use crate::c::C;\npub struct B(C);\n",
                "c.rs": "pub struct C;\n",
            },
            edges=2,
        )

    def test_containment_parent_and_child(self):
        # p/mod.rs uses its child's items and the child uses the parent's: one unit
        self.assert_clean(
            {
                "lib.rs": "mod a;\nmod p;\npub struct Root;\npub use a::A;\n",
                "a.rs": "use crate::Root;\npub struct A(Root);\n",
                "p/mod.rs": "mod child;\nuse self::child::C;\npub struct P;\npub fn f(_: C) {}\n",
                "p/child.rs": "use super::P;\npub struct C(P);\npub fn g(_: crate::p::P) {}\n",
            },
            edges=0,
        )

    def test_containment_grandchild(self):
        self.assert_clean(
            {
                "lib.rs": "mod p;\n",
                "p/mod.rs": "mod q;\npub struct P;\npub fn f(_: q::r::R) {}\n",
                "p/q/mod.rs": "pub mod r;\n",
                "p/q/r.rs": "pub struct R;\npub fn g(_: super::super::P) {}\n",
            },
            edges=0,
        )

    def test_test_only_code(self):
        # b.rs names a only in test code: a test module inline, a test module file, a
        # `#[cfg(test)]` use and function, and a file below a test module
        self.assert_clean(
            {
                "lib.rs": "mod a;\nmod b;\n",
                "a.rs": "use crate::b::X;\npub struct Y(X);\n",
                "b.rs": """
                    pub struct X;
                    #[cfg(test)]
                    use crate::a::Y;
                    #[cfg(test)]
                    fn helper() -> u32 { crate::a::helper_too() }
                    #[cfg(test)]
                    #[allow(unused)]
                    mod tests {
                        use super::super::a::Y;
                        fn t() { let _ = crate::a::Y(super::X); }
                    }
                    #[cfg(test)]
                    mod tests_file;
                """,
                "b/tests_file.rs": "use crate::a::Y;\nmod more;\n",
                "b/tests_file/more.rs": "use crate::a::Y;\n",
            },
            edges=1,
        )

    def test_paths_in_comments_and_strings(self):
        self.assert_clean(
            {
                "lib.rs": "mod a;\nmod b;\n",
                "a.rs": "use crate::b::X;\npub struct Y(X);\n",
                "b.rs": r'''
                    //! Module docs naming [crate::a::Y] and `use crate::a::Y;`.
                    pub struct X;
                    // use crate::a::Y;
                    /* crate::a::Y /* nested crate::a::Y */ still a comment: super::a::Y */
                    /// Item docs: [`super::a::Y`].
                    pub fn f<'a>(s: &'a str) -> &'a str {
                        let _ = "crate::a::Y";
                        let _ = "escaped \" crate::a::Y";
                        let _ = r#"use crate::a::Y; "quoted""#;
                        let _ = '"';
                        let _ = "use super::a::Y;";
                        s
                    }
                ''',
            },
            edges=1,
        )

    def test_macro_export(self):
        # a `#[macro_export]` macro lives at the crate root: naming it (b names a's
        # `whisper`) is no dependency on the file defining it, and `$crate::` in a macro's
        # body (b's `shout` names a's `quiet`) is the expansion site's business
        self.assert_clean(
            {
                "lib.rs": "mod a;\nmod b;\n",
                "a.rs": """
                    use crate::b::X;
                    pub struct Y(X);
                    pub fn quiet() -> u32 { 1 }
                    pub fn loud() -> u32 { crate::shout!() }
                    #[macro_export]
                    macro_rules! whisper {
                        () => { 0 };
                    }
                """,
                "b.rs": """
                    use crate::whisper;
                    pub struct X;
                    #[macro_export]
                    macro_rules! shout {
                        () => { $crate::a::quiet() };
                    }
                    pub fn f() -> u32 { whisper!() + crate::whisper!() }
                """,
            },
            edges=1,
        )

    def test_outside_crates_and_std(self):
        self.assert_clean(
            {
                "lib.rs": "mod a;\nmod b;\npub struct L;\n",
                "main.rs": "mod cli;\nuse huntsolve::L;\nfn main() { let _ = huntsolve::L; cli::f() }\n",
                "cli.rs": "use std::collections::HashMap;\nuse serde::Serialize;\npub fn f() {}\n",
                "a.rs": "use std::fmt;\nuse crate::b::B;\npub fn f(_: B) {}\n",
                "b.rs": "use core::mem;\npub struct B;\npub fn g() { std::process::exit(0) }\n",
            },
            edges=1,
        )

    def test_inline_modules_of_one_file(self):
        # inline modules using each other inside one file are no file circle
        self.assert_clean(
            {
                "lib.rs": "mod a;\n",
                "a.rs": """
                    mod m { pub struct M; pub fn f(_: super::n::N) {} }
                    mod n { pub struct N; pub fn f(_: super::m::M) {} }
                """,
            },
            edges=0,
        )


# ---------------------------------------------------------------- rule 1: file size


class FileSize(Case):
    def test_ceiling_is_1200(self):
        self.assertEqual(hc.MAX_LINES, CEILING)

    def test_over_the_ceiling_reported(self):
        out = self.assert_reported(
            {"lib.rs": "mod big;\nmod small;\n", "big.rs": lines(CEILING + 1), "small.rs": lines(3)},
            f"src/big.rs: {CEILING + 1} lines of non-test code ({CEILING + 1} in all), over the ceiling of {CEILING}",
        )
        self.assertIn(f"largest src/big.rs with {CEILING + 1} non-test lines (ceiling {CEILING})", out)
        self.assertNotIn("src/small.rs:", out)

    def test_last_line_without_newline_counts(self):
        self.assert_reported(
            {"lib.rs": "mod big;\n", "big.rs": lines(CEILING) + "pub const LAST: u32 = 0;"},
            f"src/big.rs: {CEILING + 1} lines of non-test code",
        )

    def test_comments_and_blank_lines_count(self):
        self.assert_reported(
            {"lib.rs": "mod big;\n", "big.rs": lines(CEILING - 1) + "\n// a comment\n"},
            f"src/big.rs: {CEILING + 1} lines of non-test code",
        )

    def test_at_the_ceiling_clean(self):
        out = self.assert_clean({"lib.rs": "mod big;\n", "big.rs": lines(CEILING)})
        self.assertIn(f"largest src/big.rs with {CEILING} non-test lines", out)

    def test_every_big_file_named(self):
        out = self.assert_reported(
            {"lib.rs": "mod p;\n" + lines(CEILING + 2, "r"), "p/mod.rs": lines(CEILING + 5)},
            f"src/lib.rs: {CEILING + 3} lines of non-test code",
            f"src/p/mod.rs: {CEILING + 5} lines of non-test code",
        )
        self.assertIn("house-check: 2 violation(s)", out)

    def test_test_modules_do_not_count(self):
        test_mod = "#[cfg(test)]\n#[allow(unused)]\nmod tests {\n" + lines(400, "t") + "}\n"
        out = self.assert_clean(
            {
                "lib.rs": "mod big;\n",
                "big.rs": lines(CEILING - 10) + test_mod + lines(10, "y"),
            }
        )
        self.assertIn(f"largest src/big.rs with {CEILING} non-test lines", out)

    def test_test_module_files_do_not_count(self):
        self.assert_clean(
            {
                "lib.rs": "mod big;\n",
                "big.rs": "pub struct B;\n#[cfg(test)]\nmod tests;\n",
                "big/tests.rs": lines(CEILING + 500, "t") + "mod deeper;\n",
                "big/tests/deeper.rs": lines(CEILING + 500, "d"),
            }
        )

    def test_test_code_does_not_hide_real_code(self):
        # a big file with a test module is still over when its other lines are
        test_mod = "#[cfg(test)]\nmod tests {\n" + lines(50, "t") + "}\n"
        self.assert_reported(
            {"lib.rs": "mod big;\n", "big.rs": lines(CEILING) + test_mod + "pub const Z: u32 = 0;\n"},
            f"src/big.rs: {CEILING + 1} lines of non-test code ({CEILING + 54} in all)",
        )

    def test_undeclared_file_reported(self):
        self.assert_reported(
            {"lib.rs": "mod a;\n", "a.rs": "pub struct A;\n", "stray.rs": "pub struct S;\n"},
            "src/stray.rs: a file under src/ that no `mod` declares",
        )

    def test_sizes_listing(self):
        rc, out = self.run_check(
            {"lib.rs": "mod a;\nmod b;\n", "a.rs": lines(5), "b.rs": lines(9)}, "--sizes", "2"
        )
        self.assertEqual(rc, 0, out)
        self.assertIn("file sizes: 3 files, largest src/b.rs with 9 non-test lines", out)
        self.assertIn("      9  src/b.rs\n      5  src/a.rs\n", out)


# ---------------------------------------------------------------- what the script prints


class Output(Case):
    def test_clean_crate_output(self):
        rc, out = self.run_check(
            {
                "lib.rs": "mod a;\nmod b;\npub fn x() {}\n" + "pub fn y() {}\n" * 300,
                "a.rs": "use crate::b::B;\n",
                "b.rs": "pub struct B;\n",
            },
            "--edges",
        )
        self.assertEqual(rc, 0, out)
        self.assertIn("  src/a.rs -> src/b.rs  (src/a.rs:1 crate::b::B)", out)
        self.assertIn("file circles: 3 modules, 1 dependencies between siblings, 0 circle(s)", out)
        self.assertTrue(out.rstrip().endswith("house-check: ok"), out)
        self.assertNotIn("pub fn", out)  # the pub fn count is no rule any more

    def test_mod_without_file(self):
        rc, out = self.run_check({"lib.rs": "mod gone;\n"})
        self.assertNotEqual(rc, 0)
        self.assertIn("src/lib.rs: `mod gone;` has no file", out)

    def test_mod_file_inside_inline_module(self):
        # `mod leaf;` in a.rs's inline `mod inner` (after an inline `mod m {}` there) is
        # a/inner/leaf.rs; in lib.rs's inline `mod api`, src/api/gate.rs
        rc, out = self.run_check(
            {
                "lib.rs": "mod a;\nmod api {\n    mod gate;\n}\n",
                "a.rs": "mod inner {\n    mod m {}\n    mod leaf;\n}\n",
                "a/inner/leaf.rs": "pub struct L;\n",
                "api/gate.rs": "pub struct G;\n",
            }
        )
        self.assertEqual(rc, 0, out)
        self.assertIn("file sizes: 4 files", out)


# ---------------------------------------------------------------- reading Rust text


class Reading(unittest.TestCase):
    def test_code_only_blanks_comments_and_strings(self):
        t = "let s = \"crate::a::b\"; // crate::c\nlet q = '\"'; /* crate::d */ crate::e::F"
        c = hc.code_only(t)
        self.assertNotIn("crate::a", c)
        self.assertNotIn("crate::c", c)
        self.assertNotIn("crate::d", c)
        self.assertTrue(c.endswith("crate::e::F"), c)
        self.assertEqual((len(c), c.count("\n")), (len(t), 1))

    def test_use_trees(self):
        toks = hc.tokens("use super::{a::X, b::{self, Y as Z}, c::*};")
        trees, _ = hc.parse_use_tree(toks, 1)
        self.assertEqual(
            trees,
            [
                (["super", "a", "X"], "X"),
                (["super", "b"], "b"),
                (["super", "b", "Y"], "Z"),
                (["super", "c", "*"], None),
            ],
        )

    def test_test_items(self):
        code = hc.code_only("fn a() {}\n#[cfg(test)]\n#[allow(x)]\nmod tests {\n  fn b() { {} }\n}\nfn c() {}\n")
        spans = hc.test_items(code)
        self.assertEqual([(hc.line_of(code, a), hc.line_of(code, b - 1), n) for a, b, n in spans], [(2, 6, "tests")])

    def test_inline_paths(self):
        self.assertEqual(
            hc.inline_paths(hc.tokens("x = crate::m::f(super::g); $crate::h; a::crate::i"), [], []),
            [(4, ["crate", "m", "f"]), (16, ["super", "g"])],
        )


def main():
    verbose = "-v" in sys.argv[1:]
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    stream = sys.stderr if verbose else open(os.devnull, "w")
    result = unittest.TextTestRunner(stream=stream, verbosity=2 if verbose else 1).run(suite)
    if not result.wasSuccessful():
        if not verbose:
            for test, tb in result.failures + result.errors:
                print(f"FAIL: {test.id()}\n{tb}", file=sys.stderr)
        print(
            f"house-check self-tests: {len(result.failures) + len(result.errors)} of {result.testsRun} failed"
            f" (scripts/test_house_check.py, on {CHECKER})",
            file=sys.stderr,
        )
        return 1
    print(f"house-check self-tests: {result.testsRun} cases ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
