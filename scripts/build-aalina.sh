#!/usr/bin/env bash
# Builds Aalina, Joan Sala Soler's Oware Abapa engine (GPL-3.0; negamax, an endgame table of up to
# 12 seeds on the board and an opening book), as a local sparring partner: it is never shipped
# and nothing of it enters this repository (docs/aalina.md).
#
#   bash scripts/build-aalina.sh [DIR]       # DIR defaults to $AALINA_DIR or ~/.cache/ayo/aalina
#
# The source is taken at pinned commits of joansalasoler/oware (the game, its endgame table
# oware-leaves.bin and opening book oware-roots.bin) and joansalasoler/samurai (the framework),
# cloned from GitHub unless AALINA_OWARE_GIT / AALINA_SAMURAI_GIT name other clones (a URL or a
# local git directory, bare or not). Maven is not used: javac compiles both against Debian's jars
# in /usr/share/java (AALINA_JARS to look elsewhere), which are copied to DIR/lib.
#
# DIR then holds aalina.jar with the two tables beside it (where the engine looks for them), and
# BUILD names the commits; a second run with the same commits does nothing. The build ends by
# starting the engine's `service` and checking that both tables were loaded.
set -euo pipefail

OWARE_COMMIT=bb17feca057bdd225d8c9d3cf7120813182578d4
SAMURAI_COMMIT=5f45b1b209ed09d97b8bf442f88af6b8b4452ba5
OWARE_GIT="${AALINA_OWARE_GIT:-https://github.com/joansalasoler/oware.git}"
SAMURAI_GIT="${AALINA_SAMURAI_GIT:-https://github.com/joansalasoler/samurai.git}"
JARS="${AALINA_JARS:-/usr/share/java}"
DIR="${1:-${AALINA_DIR:-$HOME/.cache/ayo/aalina}}"
MAIN=com.joansala.game.oware.OwareModule

die() {
    echo "build-aalina: $*" >&2
    exit 1
}

# The jars javac compiles against and the engine runs with: file, Debian package.
DEPS=(
    "picocli.jar libpicocli-java"
    "jline3-reader.jar libjline3-java"
    "jline3-terminal.jar libjline3-java"
    "jline3-builtins.jar libjline3-java"
    "db-je.jar libdb-je-java"
    "guice-no-aop.jar libguice-java"
    "atinject-jsr330-api.jar libatinject-jsr330-api-java"
    "aopalliance.jar libaopalliance-java"
    "guava.jar libguava-java"
)

for tool in git java javac jar; do
    command -v "$tool" >/dev/null || die "$tool is missing (Debian: apt-get install git openjdk-17-jdk-headless)"
done
missing=()
for dep in "${DEPS[@]}"; do
    read -r file package <<<"$dep"
    [ -f "$JARS/$file" ] || missing+=("$JARS/$file (Debian package $package)")
done
if [ "${#missing[@]}" -gt 0 ]; then
    printf 'build-aalina: a dependency jar is missing: %s\n' "${missing[@]}" >&2
    die "install them (apt-get install libpicocli-java libjline3-java libdb-je-java libguice-java" \
        "libguava-java), or point AALINA_JARS at a folder that has them"
fi

stamp="oware $OWARE_COMMIT samurai $SAMURAI_COMMIT java $(javac -version 2>&1)"
if [ -f "$DIR/BUILD" ] && [ "$(cat "$DIR/BUILD")" = "$stamp" ] && [ -f "$DIR/aalina.jar" ]; then
    echo "Aalina is built in $DIR ($OWARE_COMMIT, samurai $SAMURAI_COMMIT)"
    exit 0
fi

mkdir -p "$DIR"
DIR="$(cd "$DIR" && pwd)"
work="$DIR/work"
rm -rf "$work" "$DIR/BUILD"
mkdir -p "$work/src" "$work/classes" "$DIR/lib"

# A git directory holding COMMIT for the repository at URL: a local one as it is, else a bare
# clone kept in DIR/src (fetched again only when it lacks the commit).
git_dir() {
    local name="$1" url="$2" commit="$3" dir
    if [ -d "$url" ]; then
        dir="$(git -C "$url" rev-parse --absolute-git-dir 2>/dev/null || echo "$url")"
    else
        dir="$DIR/src/$name.git"
        if [ ! -d "$dir" ]; then
            mkdir -p "$DIR/src"
            git clone --quiet --bare "$url" "$dir" >&2 \
                || die "cannot clone $url (set AALINA_${name^^}_GIT to a local clone)"
        fi
        if ! git --git-dir="$dir" cat-file -e "$commit^{commit}" 2>/dev/null; then
            git --git-dir="$dir" fetch --quiet "$url" "$commit" >&2 || true
        fi
    fi
    git --git-dir="$dir" cat-file -e "$commit^{commit}" 2>/dev/null \
        || die "$url has no commit $commit of $name"
    echo "$dir"
}

# Only src/main: the rest (the native image's profile data in oware/pgo) is not needed.
oware="$(git_dir oware "$OWARE_GIT" "$OWARE_COMMIT")"
samurai="$(git_dir samurai "$SAMURAI_GIT" "$SAMURAI_COMMIT")"
mkdir -p "$work/src/oware" "$work/src/samurai"
for repo in oware samurai; do
    if [ "$repo" = oware ]; then dir="$oware" commit="$OWARE_COMMIT"; else dir="$samurai" commit="$SAMURAI_COMMIT"; fi
    git --git-dir="$dir" archive --prefix=src/main/ "$commit:src/main" | tar -x -C "$work/src/$repo"
    git --git-dir="$dir" show "$commit:COPYING" >"$work/src/$repo/COPYING"
done

classpath=()
manifest_path=()
for dep in "${DEPS[@]}"; do
    read -r file _ <<<"$dep"
    cp -L "$JARS/$file" "$DIR/lib/$file"
    classpath+=("$DIR/lib/$file")
    manifest_path+=("lib/$file")
done

echo "compiling Aalina ($OWARE_COMMIT) and samurai ($SAMURAI_COMMIT) into $DIR"
find "$work/src" -name '*.java' >"$work/sources.txt"
(IFS=:; javac -nowarn -encoding UTF-8 --release 11 -cp "${classpath[*]}" -d "$work/classes" @"$work/sources.txt") \
    || die "javac failed (above)"

# Maven fills the properties' ${...} from the pom; the engine reads them beside its jar.
sed -e 's/\${project.name}/Samurai Oware/' -e 's/\${project.version}/2.1.0-SNAPSHOT/' \
    -e 's/\${project.organization.name}/Joan Sala Soler/' \
    "$work/src/oware/src/main/resources/oware.properties" >"$DIR/oware.properties"
cp "$work/src/oware/src/main/resources/oware-leaves.bin" "$work/src/oware/src/main/resources/oware-roots.bin" \
    "$work/src/oware/COPYING" "$DIR/"
printf 'Main-Class: %s\nClass-Path: %s\n' "$MAIN" "${manifest_path[*]}" >"$work/manifest.txt"
jar cfm "$DIR/aalina.jar" "$work/manifest.txt" -C "$work/classes" .

# Both tables must load: the engine offers the UseLeaves (endgame table) and OwnBook (opening
# book) options only when it could open them, and says why not on stderr.
answer="$(cd / && printf 'uci\nquit\n' | timeout 60 java -jar "$DIR/aalina.jar" service 2>"$work/service.err")" \
    || die "the engine did not start: $(cat "$work/service.err")"
grep -q '^option name UseLeaves ' <<<"$answer" \
    || die "the endgame table $DIR/oware-leaves.bin was not loaded: $(cat "$work/service.err")"
grep -q '^option name OwnBook ' <<<"$answer" \
    || die "the opening book $DIR/oware-roots.bin was not loaded: $(cat "$work/service.err")"
rm -rf "$work"
echo "$stamp" >"$DIR/BUILD"
echo "Aalina is built in $DIR: $(grep '^id name' <<<"$answer" | cut -d' ' -f3-), endgame table and opening book loaded"
echo "run it with: java -jar $DIR/aalina.jar service"
