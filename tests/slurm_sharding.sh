#!/usr/bin/env bash
# The README's Slurm recipe on a real single-node Slurm: starts munged, slurmctld and slurmd (as
# root, Debian's munge and slurm-wlm) with a slurm.conf written into a temporary directory
# (non-default ports, bound to 127.0.0.1, state/spool/logs inside it), submits a 4-task job array
# of a small preset and a merge job that depends on it (afterok), waits (at most WAIT seconds),
# checks the merged file equals a single-process run (timing fields blanked, see
# core/eval/sharding.h) and stops exactly the daemons it started, by their PIDs. A daemon that
# does not start fails the test with its log.
# usage: slurm_sharding.sh FDLAB-CLI [PRESET]
set -uo pipefail
CLI=$(readlink -f "$1")
PRESET=${2:-featureboost-threshold}
N=4
WAIT=150
fail() {
  echo "FAIL: $*"
  exit 1
}
[ "$(id -u)" = 0 ] || fail "the Slurm test starts munged, slurmctld and slurmd and must run as root"
for b in /usr/sbin/munged /usr/sbin/slurmctld /usr/sbin/slurmd sbatch squeue sinfo; do
  command -v "$b" >/dev/null || fail "$b not found (Debian packages: munge slurm-wlm)"
done
id munge >/dev/null 2>&1 || fail "no 'munge' user (Debian package munge)"

T=$(mktemp -d /tmp/fdlab-slurm.XXXXXX)
chmod 755 "$T"   # munged (user munge) must reach its own sub-directory
mkdir -p "$T/munge" "$T/state" "$T/spool" "$T/jobs"
chown munge:munge "$T/munge"
chmod 755 "$T/munge"   # the socket needs execute permission for all; the key is mode 400

# -- stop exactly what this script started --------------------------------------------------
stop_pid() {   # stop_pid NAME PIDFILE
  local pid
  pid=$(cat "$2" 2>/dev/null) || return 0
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill "$pid" 2>/dev/null
  for _ in $(seq 50); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.2
  done
  echo "note: $1 ($pid) ignored SIGTERM for 10 s, sending SIGKILL"
  kill -9 "$pid" 2>/dev/null
}
cleanup() {
  stop_pid slurmd "$T/slurmd.pid"
  stop_pid slurmctld "$T/slurmctld.pid"
  stop_pid munged "$T/munge/munged.pid"
  [ -n "${KEEP:-}" ] || rm -rf "$T"
}
trap cleanup EXIT
show_log() {   # show_log NAME FILE
  echo "---- $1 log ($2) ----"
  tail -n 40 "$2" 2>/dev/null || echo "(no log)"
}

# -- free ports: two consecutive unused ones, away from Slurm's defaults 6817/6818 ---------------
port_free() { ! ss -Hltn "sport = :$1" | grep -q .; }
for _ in $(seq 50); do
  P1=$((20000 + RANDOM % 20000))
  P2=$((P1 + 1))
  port_free $P1 && port_free $P2 && break
done

# -- munge: its own key, socket, pid and log inside $T ------------------------------------------
mungekey -c -k "$T/munge/munge.key" >/dev/null 2>&1 || dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 2>/dev/null
chown munge:munge "$T/munge/munge.key"
chmod 400 "$T/munge/munge.key"
SOCK=$T/munge/munge.sock
su -s /bin/sh munge -c "/usr/sbin/munged --socket=$SOCK --key-file=$T/munge/munge.key \
  --log-file=$T/munge/munged.log --pid-file=$T/munge/munged.pid --seed-file=$T/munge/munged.seed" ||
  { show_log munged "$T/munge/munged.log"; fail "munged did not start"; }
munge -n -S "$SOCK" | unmunge -S "$SOCK" >/dev/null || { show_log munged "$T/munge/munged.log"; fail "munge credential round trip failed"; }

# -- slurm.conf --------------------------------------------------------------------------------
HOST=$(hostname -s)
export SLURM_CONF=$T/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=fdlabtest
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$P1
SlurmdPort=$P2
CommunicationParameters=NoCtldInAddrAny,NoInAddrAny
AuthType=auth/munge
AuthInfo=socket=$SOCK
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=fdlabtest Nodes=$HOST Default=YES MaxTime=10 State=UP
EOF

/usr/sbin/slurmctld -f "$SLURM_CONF" || { show_log slurmctld "$T/slurmctld.log"; fail "slurmctld did not start"; }
/usr/sbin/slurmd -f "$SLURM_CONF" || { show_log slurmd "$T/slurmd.log"; fail "slurmd did not start"; }
for _ in $(seq 60); do
  [ "$(sinfo -h -o %t 2>/dev/null)" = idle ] && break
  sleep 0.5
done
if [ "$(sinfo -h -o %t 2>/dev/null)" != idle ]; then
  sinfo 2>&1
  show_log slurmctld "$T/slurmctld.log"
  show_log slurmd "$T/slurmd.log"
  fail "the node did not become idle within 30 s"
fi
for p in $P1 $P2; do   # listening on localhost only
  if ss -Hltn "sport = :$p" | awk '{print $4}' | grep -qv '^127\.0\.0\.1:'; then
    ss -ltnp "sport = :$p"
    fail "port $p is not bound to 127.0.0.1 only"
  fi
done

# -- the recipe (as in README.md) --------------------------------------------------------------
cd "$T/jobs"
cat >shard.sbatch <<EOF
#!/bin/bash
#SBATCH --job-name=fdlab-shard
#SBATCH --cpus-per-task=1
#SBATCH --output=shard-%a.log
exec "$CLI" run "$PRESET" --shard \$SLURM_ARRAY_TASK_ID/\$SLURM_ARRAY_TASK_COUNT --threads \$SLURM_CPUS_PER_TASK \\
  --quiet --output part-\$SLURM_ARRAY_TASK_ID.json
EOF
jid=$(sbatch --parsable --array=0-$((N - 1)) shard.sbatch) || fail "sbatch of the array failed"
mid=$(sbatch --parsable --dependency=afterok:$jid --job-name=fdlab-merge --output=merge.log \
  --wrap "exec \"$CLI\" merge part-*.json --output results.json --csv curves.csv") || fail "sbatch of the merge failed"
echo "submitted array $jid (${N} tasks) and merge $mid"

start=$SECONDS
while [ -n "$(squeue -h 2>/dev/null)" ]; do
  if ((SECONDS - start > WAIT)); then
    squeue
    show_log slurmctld "$T/slurmctld.log"
    show_log slurmd "$T/slurmd.log"
    fail "jobs still queued after $WAIT s"
  fi
  sleep 1
done
echo "jobs finished in $((SECONDS - start)) s"
for i in $(seq 0 $((N - 1))); do
  [ -s part-$i.json ] || { cat shard-$i.log 2>/dev/null; show_log slurmd "$T/slurmd.log"; fail "array task $i wrote no part"; }
done
[ -s results.json ] || { cat merge.log 2>/dev/null; show_log slurmctld "$T/slurmctld.log"; fail "the merge job wrote no results"; }
cat merge.log

# -- equal to the single-process run -----------------------------------------------------------
normalise() { sed -E 's/^( *"(elapsed_seconds|threads|train_seconds)": )[^,]*/\1T/' "$1"; }
"$CLI" run "$PRESET" --quiet --format csv --output single.json --csv single.csv >/dev/null || fail "single run failed"
cmp <(normalise single.json) <(normalise results.json) || {
  diff <(normalise single.json) <(normalise results.json) | head -20
  fail "merged results differ from the single-process run"
}
# The '#' provenance header names the thread counts, which differ; the table must not.
cmp <(grep -v '^#' single.csv) <(grep -v '^#' curves.csv) || fail "merged curves CSV differs"
echo "slurm_sharding: OK (array of $N shards of $PRESET + dependent merge == single run)"
