#!/usr/bin/env bash
# Builds Ludii 1.0.8's engine from source and runs LudiiPerft.java on a .lud file.
#
# usage: scripts/ludii/ludii-perft.sh LUD DEPTH [OPTION ...]
#   LUDII_GIT  git directory of the automenta/ludii repository (a decompilation of
#              Ludii-1.0.8.jar), commit d3edb3553c2f4d020df2aa3d9a37037477da3bfd
#   LUDII_BUILD where to build (default: target/ludii); kept between runs
#
# Needs Debian's javac (OpenJDK 17), trove4j 3.0.3 and the JAXB API (Debian packages
# libtrove3-java, libjaxb-api-java), the fork's dependencies not bundled in its sources.
# ludii-1.0.8.patch: the fork's repository lacks the package game.functions.booleans.is.target
# (its .gitignore drops every directory named target), so `(is Target ...)` is made an error,
# unused by the hunt games; and four places the decompiler broke are restored from the
# official code: a missing `break` in
# Grammar.removeRedundantFunctionNames (a clause removed twice), and the next-player loops of
# Context.setMoverAndImpliedPrevAndNext, End.applyResult and Game.apply (a `for` whose update
# resets the player to 1 on every pass).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
commit=d3edb3553c2f4d020df2aa3d9a37037477da3bfd
: "${LUDII_GIT:?set LUDII_GIT to the git directory of automenta/ludii}"
build=${LUDII_BUILD:-target/ludii}
trove=/usr/share/java/trove4j.jar:/usr/share/java/jaxb-api.jar
for jar in ${trove//:/ }; do
    [ -f "$jar" ] || { echo "missing $jar (apt-get install libtrove3-java libjaxb-api-java)" >&2; exit 2; }
done
if [ ! -f "$build/classes/.built" ]; then
    rm -rf "$build" && mkdir -p "$build/src" "$build/classes"
    git --git-dir="$LUDII_GIT" archive "$commit" src/main | tar -x -C "$build/src"
    (cd "$build/src" && patch -s -p1 < "$here/ludii-1.0.8.patch")
    # The engine only: the packages the compiler scans for ludemes and what they use
    # (javac pulls the rest from -sourcepath); the GUI and the bundled Batik, which would
    # need Rhino, are left out.
    src="$build/src/src/main/java"
    for p in game util language grammar main options metadata annotations collections topology math other; do
        [ -d "$src/$p" ] && find "$src/$p" -name '*.java'
    done > "$build/sources.txt"
    javac -J-Xmx1500m -nowarn -parameters -encoding UTF-8 -cp "$trove" -sourcepath "$src" -d "$build/classes" \
        @"$build/sources.txt" 2> "$build/javac.log" || { tail -20 "$build/javac.log" >&2; exit 1; }
    cp -r "$build/src/src/main/resources/." "$build/classes/"
    touch "$build/classes/.built"
fi
javac -nowarn -cp "$build/classes:$trove" -d "$build" "$here/LudiiPerft.java"
exec java -Xss64m -Xmx1500m -cp "$build/classes:$trove:$build" LudiiPerft "$@"
