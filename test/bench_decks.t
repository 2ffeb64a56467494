#!/bin/sh
# The MaHyCo weak-scaling decks and launch scripts: valid decks with about 19.5k owned cells
# per rank (within 2% of 19,531), and run/launch_mahyco_N.sh passing rank count, deck,
# MPI_ARGS and overrides to mpirun or srun, listing on stdout as in the Arcane README.
. test/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

for n in 128 256 512 1024 2048; do
    "$HYDRO" --check "$top/inputs/bench/mahyco_$n.ini" > check.$n 2>&1
    ok $? "inputs/bench/mahyco_$n.ini is a valid deck"
    per=$(awk -v n=$n '/^nx = /{x=$3} /^ny = /{y=$3} /^nz = /{z=$3} END{printf "%.0f", x*y*z/n}' check.$n)
    awk -v p="$per" 'BEGIN{exit !(p > 19531*0.98 && p < 19531*1.02)}'
    ok $? "mahyco_$n: $per owned cells per rank (19,531 within 2%)"
    grep -q '^name = bisod_x' check.$n && grep -q '^ghost_layers = 3' check.$n && grep -q '^max_cycles = 50' check.$n &&
        grep -q '^checkpoint_period = -1' check.$n && grep -q '^remap_split = directional' check.$n
    ok $? "mahyco_$n: bisod_x, 3 ghost layers, directional remap, 50 cycles, no dumps"
done

# A launcher that records its arguments, then runs them on 2 ranks (the decks need hundreds).
cat > fake <<EOS
#!/bin/sh
echo "\$0 \$*" > "$tmp/args"
[ "\$1" = -np ] || [ "\$1" = -n ] || { shift; shift; }
shift 2
exec $MPIRUN -np 2 "\$@"
EOS
chmod +x fake
mkdir -p bin && cp fake bin/srun
small="mesh.nx=40 mesh.ny=4 mesh.nz=4 run.max_cycles=3"
(cd / && HYDRO=$HYDRO MPIRUN="$tmp/fake" MPI_ARGS="--bind-to none" timeout "$TIMEOUT" \
    sh "$top/run/launch_mahyco_512.sh" $small > "$tmp/result2.txt" 2> "$tmp/err")
rc=$?
grep -q '  loop:' result2.txt && [ $rc -eq 0 ]
ok $? "sh run/launch_mahyco_512.sh > result2.txt from another directory; grep '  loop:' finds the line"
[ $rc -eq 0 ] || diag "$(cat err)"
grep -q -- "--bind-to none -np 512 $HYDRO $top/inputs/bench/mahyco_512.ini $small" args
ok $? "MPI_ARGS, -np 512, the deck and the overrides reach the launcher"
diag "$(cat args)"
(PATH=$tmp/bin:$PATH HYDRO=$HYDRO MPIRUN=srun timeout "$TIMEOUT" sh "$top/run/launch_mahyco_2048.sh" $small \
    > result3.txt 2> err)
grep -q '  loop:' result3.txt && grep -q -- "srun -n 2048 $HYDRO" args
ok $? "MPIRUN=srun: srun -n 2048 runs the deck"
done_testing
