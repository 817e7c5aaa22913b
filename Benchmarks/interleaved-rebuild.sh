#!/usr/bin/env bash
# Compares two storysite binaries on the rebuild after a one-story edit, in a workspace that
# build-benchmark made: each binary builds its own copy of the workspace once, then round after
# round the same story's subtitle is edited in both copies and each rebuilds, in turn, so that a
# machine whose speed drifts slows both alike. Prints each round's times and the median ratio.
#
#   bash Benchmarks/interleaved-rebuild.sh OLD_STORYSITE NEW_STORYSITE WORKSPACE [ROUNDS]
#
# For example, the commit before a change against the working tree, at 10,000 stories:
#   git worktree add /tmp/before HEAD~1 && (cd /tmp/before && swift build -c release --product storysite)
#   swift build -c release --product storysite
#   .build/release/build-benchmark --stories 10000 --runs 1 --workspace /dev/shm/b10k
#   bash Benchmarks/interleaved-rebuild.sh /tmp/before/.build/release/storysite .build/release/storysite /dev/shm/b10k 9
#
# The copies (`<WORKSPACE>-old`, `-new`) are separate because the two binaries may keep their
# caches in different formats; they are removed at the end.
set -euo pipefail
[[ $# -ge 3 ]] || { sed -n '7p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 64; }
old=$(realpath "$1")
new=$(realpath "$2")
workspace=$(realpath "$3")
rounds=${4:-9}
edited=Content/posts/0/post-5.json
[[ -f "$workspace/$edited" && -d "$workspace/Templates" ]] || { echo "$workspace is not a build-benchmark workspace" >&2; exit 66; }
trap 'rm -rf "$workspace-old" "$workspace-new"' EXIT

# A copy of the workspace without its output, built once by `binary`.
prepare() {
    local copy=$1 binary=$2
    rm -rf "$copy"
    mkdir "$copy"
    cp -a "$workspace/Content" "$workspace/Templates" "$copy/"
    [[ -f "$workspace/storysite.json" ]] && cp "$workspace/storysite.json" "$copy/"
    (cd "$copy" && "$binary" build --quiet >/dev/null)
}

# Edits the story in `copy`, then times the rebuild by `binary`: its wall time in seconds.
rebuild() {
    local copy=$1 binary=$2 round=$3
    sed -i "s/\"subtitle\": \"\([^\"]*\)\"/\"subtitle\": \"\1 round$round\"/" "$copy/$edited"
    local start end
    start=$(date +%s.%N)
    (cd "$copy" && "$binary" build --quiet >/dev/null)
    end=$(date +%s.%N)
    awk -v start="$start" -v end="$end" 'BEGIN { printf "%.3f", end - start }'
}

prepare "$workspace-old" "$old"
prepare "$workspace-new" "$new"
ratios=()
for round in $(seq "$rounds"); do
    old_wall=$(rebuild "$workspace-old" "$old" "$round")
    new_wall=$(rebuild "$workspace-new" "$new" "$round")
    ratio=$(awk -v a="$new_wall" -v b="$old_wall" 'BEGIN { printf "%.3f", a / b }')
    ratios+=("$ratio")
    printf 'round %d: old %s s, new %s s; new/old %s\n' "$round" "$old_wall" "$new_wall" "$ratio"
done
median() { sort -n | awk '{ value[NR] = $1 } END { print (NR % 2 ? value[(NR + 1) / 2] : (value[NR / 2] + value[NR / 2 + 1]) / 2) }'; }
printf 'median of %d rounds: new/old %s\n' "$rounds" "$(printf '%s\n' "${ratios[@]}" | median)"
