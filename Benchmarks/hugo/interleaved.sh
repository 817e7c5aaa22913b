#!/usr/bin/env bash
# Compares two storysite binaries and Hugo on a workspace that build-benchmark made, running a
# full build with each in turn, round after round, so that a machine whose speed drifts from one
# minute to the next slows all three alike. Prints each round's times, peak memory and ratios,
# then the median ratios.
#
#   bash Benchmarks/hugo/interleaved.sh [--one-story | --template-edit] OLD_STORYSITE NEW_STORYSITE WORKSPACE [ROUNDS]
#
# For example, the commit before a change against the working tree, at 100,000 stories:
#   git worktree add /tmp/before HEAD~1 && (cd /tmp/before && swift build -c release --product storysite)
#   swift build -c release --product storysite
#   .build/release/build-benchmark --stories 100000 --runs 1 --workspace /dev/shm/b100k
#   bash Benchmarks/hugo/interleaved.sh /tmp/before/.build/release/storysite .build/release/storysite /dev/shm/b100k 3
#
# Each build writes a fresh output folder of its own beside the workspace (`<WORKSPACE>-old`,
# `-new`): the two binaries may keep their content in different formats.
#
# With --one-story it compares the two binaries (not Hugo) on the rebuild after an edit: each
# builds a copy of the workspace of its own once, then round after round the same story's
# subtitle is edited in both copies and each rebuilds in turn (default 9 rounds). With
# --template-edit, the same, but the edit is a comment added to the layout, so that every page is
# rendered again and changes, and the peak memory of each rebuild is printed too.
set -euo pipefail
rebuilds=false
edit=story
if [[ ${1:-} == --one-story ]]; then rebuilds=true; shift; fi
if [[ ${1:-} == --template-edit ]]; then rebuilds=true; edit=template; shift; fi
[[ $# -ge 3 ]] || { sed -n '7p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 64; }
old=$(realpath "$1")
new=$(realpath "$2")
workspace=$(realpath "$3")
median() { sort -n | awk '{ value[NR] = $1 } END { print (NR % 2 ? value[(NR + 1) / 2] : (value[NR / 2] + value[NR / 2 + 1]) / 2) }'; }

if $rebuilds; then
    rounds=${4:-9}
    # As build-benchmark builds: with a base URL, so the sitemap and feeds are made too.
    base_url=https://bench.example/
    edited=Content/posts/0/post-5.json
    [[ -f "$workspace/$edited" && -d "$workspace/Templates" ]] || { echo "$workspace is not a build-benchmark workspace" >&2; exit 66; }
    if [[ $edit == template && ! -x /usr/bin/time ]]; then echo "/usr/bin/time is not installed (apt-get install -y time)" >&2; exit 69; fi
    trap 'rm -rf "$workspace-old" "$workspace-new" "$workspace-old.time" "$workspace-new.time"' EXIT
    # A copy of the workspace without its output, built once by `binary`.
    prepare() {
        local copy=$1 binary=$2
        rm -rf "$copy"
        mkdir "$copy"
        cp -a "$workspace/Content" "$workspace/Templates" "$copy/"
        [[ -f "$workspace/storysite.json" ]] && cp "$workspace/storysite.json" "$copy/"
        (cd "$copy" && "$binary" build --base-url "$base_url" --quiet >/dev/null)
    }
    # Edits the story (or the layout) in `copy`, then times the rebuild by `binary`: its wall
    # time in seconds, and with a template edit its peak memory.
    rebuild() {
        local copy=$1 binary=$2 round=$3 start end
        if [[ $edit == template ]]; then
            echo "<!-- round $round -->" >> "$copy/Templates/layout.mustache"
            (cd "$copy" && /usr/bin/time -f "%e s, peak %M KB" -o "$copy.time" "$binary" build --base-url "$base_url" --quiet >/dev/null)
            cat "$copy.time"
            return
        fi
        sed -i "s/\"subtitle\": \"\([^\"]*\)\"/\"subtitle\": \"\1 round$round\"/" "$copy/$edited"
        start=$(date +%s.%N)
        (cd "$copy" && "$binary" build --base-url "$base_url" --quiet >/dev/null)
        end=$(date +%s.%N)
        awk -v start="$start" -v end="$end" 'BEGIN { printf "%.3f s", end - start }'
    }
    prepare "$workspace-old" "$old"
    prepare "$workspace-new" "$new"
    ratios=()
    for round in $(seq "$rounds"); do
        old_wall=$(rebuild "$workspace-old" "$old" "$round")
        new_wall=$(rebuild "$workspace-new" "$new" "$round")
        ratio=$(awk -v a="${new_wall%% *}" -v b="${old_wall%% *}" 'BEGIN { printf "%.3f", a / b }')
        ratios+=("$ratio")
        printf 'round %d: old %s, new %s; new/old %s\n' "$round" "$old_wall" "$new_wall" "$ratio"
    done
    printf 'median of %d rounds: new/old %s\n' "$rounds" "$(printf '%s\n' "${ratios[@]}" | median)"
    exit 0
fi

rounds=${4:-3}
command -v hugo >/dev/null || { echo "hugo is not installed (apt-get install -y hugo)" >&2; exit 69; }
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time is not installed (apt-get install -y time)" >&2; exit 69; }
[[ -d "$workspace/Content" && -d "$workspace/hugo" ]] || { echo "$workspace is not a build-benchmark workspace" >&2; exit 66; }
measures=$(mktemp -d)
trap 'rm -rf "$measures" "$workspace-old" "$workspace-new" "$workspace/hugo/public"' EXIT

# One full build of `name` with the command after it; its wall time, CPU time and peak memory.
measure() {
    local name=$1
    shift
    /usr/bin/time -f "%e %U %S %M" -o "$measures/$name" "$@" >/dev/null
    read -r wall user system peak <"$measures/$name"
    awk -v wall="$wall" -v user="$user" -v sys="$system" -v peak="$peak" 'BEGIN { printf "%s %.2f %d\n", wall, user + sys, peak / 1024 }'
}

cd "$workspace"
ratios=()
for round in $(seq "$rounds"); do
    rm -rf "$workspace-old" "$workspace-new" "$workspace/hugo/public"
    read -r old_wall old_cpu old_peak < <(measure old "$old" build --output "$workspace-old" --quiet)
    read -r new_wall new_cpu new_peak < <(measure new "$new" build --output "$workspace-new" --quiet)
    read -r hugo_wall hugo_cpu hugo_peak < <(measure hugo hugo --quiet --source hugo --destination hugo/public)
    ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
    ratios+=("$(ratio "$new_wall" "$old_wall") $(ratio "$old_wall" "$hugo_wall") $(ratio "$new_wall" "$hugo_wall")")
    printf 'round %d: old %s s (CPU %s s, %s MB), new %s s (CPU %s s, %s MB), hugo %s s (%s MB); new/old %s\n' \
        "$round" "$old_wall" "$old_cpu" "$old_peak" "$new_wall" "$new_cpu" "$new_peak" "$hugo_wall" "$hugo_peak" \
        "$(ratio "$new_wall" "$old_wall")"
done
printf 'median of %d rounds: new/old %s, old/hugo %s, new/hugo %s\n' "$rounds" \
    "$(printf '%s\n' "${ratios[@]}" | cut -d' ' -f1 | median)" \
    "$(printf '%s\n' "${ratios[@]}" | cut -d' ' -f2 | median)" \
    "$(printf '%s\n' "${ratios[@]}" | cut -d' ' -f3 | median)"
