#!/bin/sh
# MicroHydro's time-step control (physics.dt_control = microhydro) on the MicroHydro lb8.1 deck:
# the first nine steps are those of Arcane's reference (microhydro/reference_files/
# MicroHydro.lb8.1/Results_P0.csv: deltat-init 1e-3, then new_dt 1e-4 growing by 10% to
# 1.9487171e-4) to 1e-12 relative, the run ends at final time 7.52e-3 within two iterations of
# Arcane's 38, and migrates as often (every 5 cycles: 7 times). Padding variables are left out
# (they change no step).
. test/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
deck=$top/inputs/bench/micro_hydro_lb8.1.ini
nopad="loadbalance.extra_cell_vars=0 loadbalance.extra_cell_array=0"
mpi 8 $HYDRO "$deck" $nopad output.checkpoint_period=1 output.checkpoint_keep=0 output.listing_period=1 \
    > run.out 2> run.err
rc=$?
ok $rc "the MicroHydro lb8.1 deck runs to its final time on 8 ranks"
[ $rc -eq 0 ] || diag "$(cat run.err)"
attr() { h5dump -m %.17g -a "/$2" "$(printf 'checkpoints/hydro_%06d.h5' "$1")" 2> /dev/null | sed -n 's/^ *(0): //p'; }
# step k is the one dump k - 1 planned (attribute dt); step 1 is the deck's dt_init
reference="1.00000000000000005e-04 1.10000000000000017e-04 1.21000000000000027e-04 1.33100000000000037e-04
1.46410000000000057e-04 1.61051000000000081e-04 1.77156100000000098e-04 1.94871710000000116e-04"
steps="$(sed -n 's/^dt_init = //p' "$deck")"
for k in 1 2 3 4 5 6 7 8; do steps="$steps $(attr $k dt)"; done
echo "$steps" | awk -v ref="1e-3 $reference" '{
    n = split(ref, r, /[ \n]+/); bad = 0
    for (i = 1; i <= n; i++) { e = ($i - r[i]) / r[i]; if (e < 0) e = -e; if (e > 1e-12 || NF != 9) bad = 1 }
    exit bad }'
ok $? "the first nine steps are the reference's to 1e-12 relative ($steps)"
last=$(ls checkpoints/hydro_*.h5 | sort | tail -n 1)
cycle=$(h5dump -a /cycle "$last" 2> /dev/null | sed -n 's/^ *(0): //p')
time=$(h5dump -m %.17g -a /time "$last" 2> /dev/null | sed -n 's/^ *(0): //p')
awk -v c="$cycle" -v t="$time" 'BEGIN { d = t - 7.52e-3; if (d < 0) d = -d; exit !(c >= 36 && c <= 40 && d < 1e-15) }'
ok $? "the run ends at 7.52e-3 (time $time) after $cycle cycles, within two of Arcane's 38"
[ "$(grep -c 'Rebalance at cycle' run.out)" -eq 7 ]; ok $? "7 migrations, every 5 cycles, as Arcane's"
grep -q '^\*I-Loop       Cycle      1  time=0.000000e+00' run.out
ok $? "cycle 1 counts no time (MicroHydro's time starts from its second step)"
# the control's reductions (min of the candidates, max of the density change) are exact: any
# rank count gives the same run (3 ranks, a partition of other shapes and migrations)
mkdir r3 && (cd r3 && mpi 3 $HYDRO "$deck" $nopad output.checkpoint_period=1000 output.checkpoint_keep=0 \
    > run.out 2> run.err)
r3=$(ls r3/checkpoints/hydro_*.h5 2> /dev/null | sort | tail -n 1)
[ -n "$r3" ] && sh "$top/test/h5same.sh" --any-deck "$last" "$r3" > h5same.out 2>&1
ok $? "3 ranks end bit for bit where 8 do ($(basename "${r3:-none}"))"
[ -s h5same.out ] && diag "$(head -5 h5same.out)"
# a restart carries the control's state: from cycle 1 (no previous step yet) and from cycle 10
# (just after a migration), on other rank counts, the run ends bit for bit where it did
for from in "1 3" "10 2"; do
    set -- $from
    mpi $2 $HYDRO --restart "$(printf 'checkpoints/hydro_%06d.h5' $1)" output.checkpoint_period=1000 \
        output.checkpoint_dir=rs$1 > rs$1.out 2> rs$1.err
    rs=$(ls rs$1/hydro_*.h5 2> /dev/null | sort | tail -n 1)
    [ -n "$rs" ] && sh "$top/test/h5same.sh" --any-deck "$last" "$rs" > rs$1.diff 2>&1
    ok $? "restart from cycle $1 on $2 ranks ends bit for bit where the 8-rank run does ($(basename "${rs:-none}"))"
    [ -n "$rs" ] || diag "$(cat rs$1.err)"
    [ -s rs$1.diff ] && diag "$(head -5 rs$1.diff)"
done
# the density cut acts: a density_ratio of 0.01 holds the step near dt_min (every cycle's density
# change exceeds it), so the run needs about twice the cycles; a ratio no change reaches grows it
cycles() { grep -c '^\*I-Loop       Cycle' "$1"; }
for r in 0.01 1e30; do
    mpi 2 $HYDRO "$deck" $nopad physics.density_ratio=$r output.listing_period=1 output.checkpoint_period=-1 \
        > cut$r.out 2>&1
done
c1=$(cycles cut0.01.out) c2=$(cycles cut1e30.out)
# (dt_min 1e-4 bounds every step but the first, which counts no time, and the last, shortened to
# end at final_time)
low=$(sed -n 's/^\*I-Loop       Cycle *\([0-9]*\) .* dt=\([0-9.e+-]*\) .*/\1 \2/p' cut0.01.out |
      awk -v last="$c1" '$1 > 1 && $1 < last && $2 < 1e-4 { n++ } END { print n + 0 }')
[ "$c1" -ge $((2 * c2 - 10)) ] && [ "$c2" -ge 30 ] && [ "$low" -eq 0 ]
ok $? "density_ratio 0.01 takes $c1 cycles, 1e30 (no cut) $c2: the cut holds the step at dt_min ($low below it)"
mpi 1 $HYDRO "$deck" physics.dt_min=0 > dt0.out 2> dt0.err
[ $? -eq 2 ] && grep -q 'physics.dt_min: must be > 0 with physics.dt_control = microhydro' dt0.err
ok $? "dt_min = 0 with the microhydro control is refused: $(head -c 100 dt0.err)"
done_testing
