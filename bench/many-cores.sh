#!/usr/bin/env bash
# The figures of the performance issue that need a machine of many cores (docs/benchmarks.md, "On 16
# cores"), in one command that fits the lent machine's 600 s: the lists over four shapes of 1,000,000
# posts (bench --only lists, 2 s per figure; the one goal not yet measured there, so first), then
# scale-out and the cost of a create (bench:scale, full), one and two workers against the emulator's
# ceiling (bench:publish --only drain, full; publish512: again with twice the places), the idle footprint (bench:footprint --smoke: RSS on
# this core count) and what a create batch of 1, 3 and 10 posts costs PostgreSQL (bench:batches,
# ~30 s). On 16 cores (2026-11-29) the last three took 230 + 37 + 29 s, and the lists ran out
# of the 251 s left to them: their ceilings, then the seeding, one statement of ~3.5 minutes per
# shape. The lists now seed each shape in as many statements at once as the cores allow (4 on 16
# cores) and skip the creates' ceilings; the 400 s they are given is from before that.
# Each bench runs alone, in that order (most wanted first), with what is left of the budget as its
# timeout (SIGINT: a bench cleans up and exits without its tables; the JSON line of each figure it
# finished is already in its log); a bench that no longer fits is skipped and said so. Output: one
# <name>.log per bench (its stdout and stderr: the device tool brought back 8 files of a run's 9 when
# they were apart) and summary.txt, under $OUT (the device tool's folder) or ./many-cores-out.
#
# Here, first (Node 24 on PATH, after npm ci): `bash bench/many-cores.sh --bundle` packs .device/ with
# ../shared/tools/device-bundle.sh, then replaces its node_modules archive with what the benches need
# (bench/device-modules.ts: about 24 MB instead of 68, so that the whole fits the 64 MiB carried). Then:
#   device run: command 'bash .device/run.sh bash bench/many-cores.sh', carry [".device"], timeout_s 600
# Here, to check the script itself (every bench's smoke run, about 3 minutes on 2 cores):
#   bash bench/many-cores.sh --smoke
# Names after the flags run only those benches: `bash bench/many-cores.sh lists footprint`.
set -u
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--bundle" ]; then
  set -e
  bash ../shared/tools/device-bundle.sh
  node bench/device-modules.ts | tar -cf - -T - | xz -T0 -6 >.device/node_modules.tar.xz
  du -ch .device/* | tail -1
  exit 0
fi
smoke=false
if [ "${1:-}" = "--smoke" ]; then smoke=true; shift; fi
# The benches to run, by name (lists scale publish publish512 footprint batches; default all): a second
# device command can take what the first had no time for. publish512 is the drain again with twice the
# destinations a worker holds (CRIER_PUBLISH_CONCURRENCY=512): whether the places bound one worker.
wanted=" ${*:-lists scale publish publish512 footprint batches} "
out=${OUT:-$PWD/many-cores-out}
mkdir -p "$out"
budget=${MANY_CORES_BUDGET_S:-560}
started=$(date +%s)
summary="$out/summary.txt"
{
  echo "many-cores: $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GB", $2/1048576}' /proc/meminfo), node $(node --version), budget ${budget} s"
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  # What else moves an idle process's RSS from one machine to another (the footprint's goal).
  echo "transparent huge pages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown)"
  # Whether the cores are physical or hyperthreads: at 4+4 the 16 CPUs were 80% busy (docs/benchmarks.md).
  echo "cpu: $(command -v lscpu >/dev/null && lscpu | grep -E '^(Model name|Socket\(s\)|Core\(s\) per socket|Thread\(s\) per core):' | tr -s ' ' | paste -sd';' || echo 'unknown (no lscpu)')"
} >"$summary"

# run NAME MIN_SECONDS COMMAND...: runs COMMAND if at least MIN_SECONDS of the budget are left.
run() {
  local name=$1 need=$2
  shift 2
  case "$wanted" in *" $name "*) ;; *) return ;; esac
  local left=$((budget - ($(date +%s) - started)))
  if [ "$left" -lt "$need" ]; then
    echo "$name: skipped, ${left} s left of the budget (it needs about ${need} s)" >>"$summary"
    return
  fi
  local t0
  t0=$(date +%s)
  timeout -s INT -k 20 "$left" "$@" >"$out/$name.log" 2>&1
  local rc=$?
  echo "$name: exit $rc in $(($(date +%s) - t0)) s: $*" >>"$summary"
  # The verdicts, so that summary.txt alone says what passed.
  # And what says whose time a drain was (the stages, the emulator's event loop, the saturated loops).
  grep -hE 'PASS|MISS|needs ≥|per stage|event-loop delay|^\| publish' "$out/$name.log" 2>/dev/null | grep -v '^{' | head -60 >>"$summary"
}

if $smoke; then
  run lists 60 node bench/run.ts --smoke --only lists
  run scale 60 node bench/scale/run.ts --smoke
  run publish 40 node bench/publishing/run.ts --smoke --only drain
  run footprint 40 node bench/footprint.ts --smoke
  run batches 20 node bench/create-batches.ts --smoke
else
  run lists 400 env BENCH_LIST_SECONDS=2 node bench/run.ts --only lists
  run scale 240 node bench/scale/run.ts
  run publish 70 node bench/publishing/run.ts --only drain
  run publish512 70 env CRIER_PUBLISH_CONCURRENCY=512 node bench/publishing/run.ts --only drain
  run footprint 45 node bench/footprint.ts --smoke
  run batches 45 node bench/create-batches.ts
fi
echo "total $(($(date +%s) - started)) s" >>"$summary"
cat "$summary"
