#!/bin/sh
# mpx_calib.sh [BUILD]: is the error estimate of a multiplexed count
# calibrated? On the simulated core, where the truth is exact, every preset
# workload is counted with 24 events on few counters and each value is
# compared with the same event counted without multiplexing
# (tests/sim/test_mpx_calib.c). One row per combination and run length:
#   n        values with a nonzero truth
#   in1 in2  share of true counts within 1 err and within 2 err
#   zw       zero-width intervals (a multiplexed value with err 0)
#   bl       blind values: the native counted nothing while it was on (or
#            was never on), so its truth lies in time it never saw
#   in2-s    share within 2 err of the values that are not blind
#   claimed  median err / value;  actual: median |value - truth| / truth
#   act-p90  90th percentile of the actual relative error
#   z50 z90 zmax, and the |z| histogram: z = (value - truth) / err
# Environment (space-separated lists) overrides the sweep:
#   PMK_CALIB_N, PMK_CALIB_ROTATE (cycles), PMK_CALIB_READ (reads every
#   READ rotations; 0 = once at the end, as `stat --sim` did before -I),
#   PMK_CALIB_COUNTERS, PMK_CALIB_EVENTS (4..24), and PMK_CALIB_SWEEP
#   (one DIVxSTEPS: the start sweep, a step every rotation / DIV cycles,
#   STEPS of them; default 40x120 as `pmkit stat --sim`; 0x0: none).
B=${1:-build}
prog=$B/tests/sim_test_mpx_calib
[ -x "$prog" ] || { echo "mpx_calib.sh: $prog is not built (make O=$B)" >&2; exit 1; }
export PMK_CALIB_N="${PMK_CALIB_N:-1M 5M}"
export PMK_CALIB_ROTATE="${PMK_CALIB_ROTATE:-5000 20000 100000}"
export PMK_CALIB_READ="${PMK_CALIB_READ:-0 2.5}"
export PMK_CALIB_COUNTERS="${PMK_CALIB_COUNTERS:-4 8}"
grep -m1 'model name' /proc/cpuinfo | sed 's/^/# machine: /'
exec "$prog"
