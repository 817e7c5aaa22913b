#!/usr/bin/env bash
# Builds the synthetic space with storysite and the same pages with Hugo, in one run, and prints
# the figures of issue 9 (wall time, ms per page, peak RSS, ratios, rebuilds).
#
#   bash Benchmarks/hugo/run.sh [--stories 10000] [--runs 3] [--jobs N]
#
# Hugo and GNU time come from Debian; without Hugo the comparison is skipped with a message.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v hugo >/dev/null || echo "hugo is not installed (apt-get install -y hugo): storysite alone is measured" >&2
[ -x /usr/bin/time ] || echo "/usr/bin/time is not installed (apt-get install -y time): peak RSS is not measured" >&2
# Built as a release is (Scripts/package), with the Swift runtime linked in: what users run, and it
# starts 6 ms sooner than one that loads the runtime's libraries. A scratch folder of its own keeps
# this build from undoing the usual one.
swift build -c release --product build-benchmark --static-swift-stdlib --scratch-path .build/static >&2
exec .build/static/release/build-benchmark "$@"
