# Shared by the run/bench_*.sh scripts (sourced, POSIX sh): reading hydro listings and taking medians.

# median: the median of the numbers on stdin, one per line
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
# timer FILE NAME: seconds of timer NAME in rank 0's table of a listing
timer() { awk -v t="$2" '/Rank 0 timers/ {g = 1} g && $2 == t {print $3; exit}' "$1"; }
# peak FILE: the largest rank's peak resident memory of a listing, MB
peak() { sed -n 's/.*Peak resident memory per rank: .* max \([0-9.]*\) MB.*/\1/p' "$1"; }
