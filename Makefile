# hydro: the only build entry. make | make run | make check | make bench | make deps | make deps-all | make smpi |
# make smpi-zoltan | make fuzz | make offload | make clean
# Build products go to $(BUILD)/ (ignored by git); the executable is $(BUILD)/hydro.

MPICC ?= mpicc
CC := $(MPICC)
BUILD ?= build
ASAN_BUILD ?= build-asan

# Debian packages the build and the tests need (make deps installs the missing ones; procps:
# pgrep and pkill, which the signal and SMPI tests use, absent from minimal Debian images; clang
# and libomp-14-dev: the offload build's test, below).
DEB_PKGS := libopenmpi-dev openmpi-bin libmetis-dev libhdf5-openmpi-dev hdf5-tools libinih-dev pkg-config \
            libtrilinos-zoltan-dev libptscotch-dev zlib1g-dev libxml2-utils gnuplot-nox valgrind procps \
            clang libomp-14-dev
PKGS := hdf5-mpi inih

# -O3: the kernels' short fixed loops unroll and vectorise (3D grind 0.75 x, 2D 0.82 x -O2's,
# BENCHMARKS.md "-O3"); no fast-math, so every operation and its order stay IEEE's: the dumps are
# the -O2 build's bit for bit.
CFLAGS ?= -O3 -g
# -ffp-contract=off: no fused multiply-add whatever the compiler's default (GCC's ISO mode has it
# off, clang's is on where the target has FMA): every product is rounded as written, so that a
# sum moved from one loop to another (the corner forces) keeps its bits
WARN := -std=c11 -ffp-contract=off -Wall -Wextra -Werror
# OpenMP threads in the kernels and in the packing of messages (mesh/par.h; OMP_NUM_THREADS per
# rank, 1 when unset). OPENMP=0 builds without them (the pragmas vanish); the SMPI build has none.
OPENMP ?= 1
OMP_FLAGS := $(if $(filter 1,$(OPENMP)),-fopenmp)
CPPFLAGS := -D_XOPEN_SOURCE=700 -Imesh -Iminiapp -Iphysics -Iio -I$(BUILD)
# Deferred (=): evaluated after 'make deps' has installed pkg-config and the libraries.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
# HDF5 is linked statically by default (Debian's libhdf5-openmpi-dev ships libhdf5.a): the
# shared libhdf5 pulls in libcurl, libcrypto, gnutls, krb5 and ldap, about 5.8 MB of resident
# pages per rank at start-up whether or not a dump is written (BENCHMARKS.md, memory); the
# archive brings only the HDF5 objects hydro calls. HDF5_LINK=shared links the shared library.
HDF5_LINK ?= static
comma := ,
ifeq ($(HDF5_LINK),static)
PKG_LIBS = $(patsubst -lhdf5,-Wl$(comma)-Bstatic -lhdf5 -Wl$(comma)-Bdynamic -lsz -lz,$(shell pkg-config --libs $(PKGS) 2>/dev/null))
endif
# The distributed partitioners (mesh/part_zoltan.c, mesh/part_ptscotch.c): Debian's Zoltan and
# PT-Scotch (32-bit SCOTCH_Num), which have no pkg-config files.
PART_CFLAGS := -I/usr/include/trilinos -I/usr/include/scotch
PART_LIBS := -ltrilinos_zoltan -lptscotch -lscotch -lptscotcherr -lscotcherr
# io/crc32.c: zlib's CRC-32 (the SMPI build has no io/)
IO_LIBS := -lz
LDLIBS = $(PKG_LIBS) $(PART_LIBS) $(IO_LIBS) -lmetis -lm
$(BUILD)/mesh/part_zoltan.o $(BUILD)/mesh/part_ptscotch.o: PKG_CFLAGS += $(PART_CFLAGS)

# Open MPI refuses to run as root unless told; oversubscribe so tests run on 2 cores.
ifeq ($(shell id -u),0)
export OMPI_ALLOW_RUN_AS_ROOT := 1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM := 1
endif
MPIRUN ?= mpirun --oversubscribe
NP ?= 2
# make bench: threads of its threads part (1 rank x THREADS against 1 x 1 and THREADS x 1)
THREADS ?= 2
DECK ?= inputs/default.ini

# SimGrid SMPI build (make smpi): the same code compiled with smpicc into $(SMPI_BUILD)/, to run
# on a simulated cluster (run/smpirun.sh, run/platforms/README.md). No HDF5 there: io/smpi/noio.c
# replaces io/*.c and HYDRO_SMPI makes the dt reduction blocking (mesh/comm.c). SMPI_PKGS are
# installed by make smpi and make deps-all (CI); make check builds and tests the SMPI build
# whenever smpicc is there.
SMPI_PKGS := libsimgrid-dev libmetis-dev libinih-dev pkg-config
SMPI_BUILD ?= build-smpi
# Debian's Zoltan and PT-Scotch are built against Open MPI, not SMPI: the SMPI build has METIS,
# and Zoltan when SMPI_ZOLTAN names a Zoltan built with smpicc (make smpi-zoltan, in
# $(SMPI_ZOLTAN_BUILD)/zoltan from Debian's Trilinos source, run/smpi_zoltan.sh; that build of
# hydro is $(SMPI_ZOLTAN_BUILD)/hydro), linked statically so that SimGrid's privatization gives
# each simulated rank its own copy of Zoltan's global state (run/smpirun.sh).
SMPI_ZOLTAN_BUILD ?= build-smpi-zoltan
SMPI_ZOLTAN ?=
# Offload build (make offload): the kernels written with DEVICE_FOR (mesh/par.h) run on an
# accelerator through OpenMP target offload, in $(OFFLOAD_BUILD)/. OFFLOAD=host (the default):
# clang's x86_64 offload plugin, a "device" whose memory is apart from the host's, so that an
# array its copies lack (NULL there: a crash) or one not copied back (stale on the host) shows
# (test/offload.t compares the dumps bit for bit; make check builds it). OFFLOAD=nvptx: GCC 12
# for NVIDIA GPUs (gcc-12-offload-nvptx, make deps-all): PTX for sm_80, which the driver compiles
# for the GPU at hand, and the device's libm; without a GPU every kernel runs on the host. Linked
# from the objects, not libhydro.a: clang 14 leaves the device code of archives out.
OFFLOAD ?= host
OFFLOAD_BUILD ?= build-offload
ifeq ($(HYDRO_OFFLOAD),host)
export OMPI_CC := clang
OMP_FLAGS := -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu
endif
ifeq ($(HYDRO_OFFLOAD),nvptx)
OMP_FLAGS := -fopenmp -foffload=nvptx-none -foffload-options=nvptx-none=-misa=sm_80 \
             -foffload-options=nvptx-none=-lm -no-pie
endif
ifneq ($(HYDRO_OFFLOAD),)
CPPFLAGS += -DHYDRO_OFFLOAD
endif
IO_SRC := $(wildcard io/*.c)
MESH_SRC := $(wildcard mesh/*.c)
ifeq ($(HYDRO_SMPI),1)
OMP_FLAGS :=
PKGS := inih
IO_SRC := io/smpi/noio.c
IO_LIBS :=
CPPFLAGS += -DHYDRO_SMPI -DHYDRO_NO_PTSCOTCH -DSMPI_NO_OVERRIDE_MALLOC # SMPI's malloc macros break <malloc.h>; unused here
ifeq ($(SMPI_ZOLTAN),)
MESH_SRC := $(filter-out mesh/part_zoltan.c mesh/part_ptscotch.c,$(MESH_SRC))
PART_CFLAGS :=
PART_LIBS :=
CPPFLAGS += -DHYDRO_NO_ZOLTAN
else
MESH_SRC := $(filter-out mesh/part_ptscotch.c,$(MESH_SRC))
PART_CFLAGS := -I$(SMPI_ZOLTAN)/include
PART_LIBS := $(SMPI_ZOLTAN)/lib/libzoltan.a
$(BUILD)/hydro: $(SMPI_ZOLTAN)/lib/libzoltan.a
endif
endif

LIB_SRC := $(MESH_SRC) $(filter-out miniapp/main.c,$(wildcard miniapp/*.c)) \
           $(wildcard physics/*.c) $(IO_SRC)
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC := $(wildcard test/unit/*.c)
MPI_TEST_SRC := $(wildcard test/mpi/*.c)
TOOL_SRC := $(wildcard test/tools/*.c)
TEST_BIN := $(UNIT_SRC:test/unit/%.c=$(BUILD)/test/%) $(MPI_TEST_SRC:test/mpi/%.c=$(BUILD)/test/%) \
            $(TOOL_SRC:test/tools/%.c=$(BUILD)/test/%)

.PHONY: all deps deps-all run check tests asan-tests smpi-tests bench clean readme smpi smpi-build smpi-zoltan \
        smpi-zoltan-build fuzz offload FORCE
all: $(BUILD)/hydro

$(BUILD)/hydro: $(BUILD)/miniapp/main.o $(if $(HYDRO_OFFLOAD),$(LIB_OBJ),$(BUILD)/libhydro.a)
	$(CC) $(LDFLAGS) $(OMP_FLAGS) -o $@ $^ $(LDLIBS)

offload:
	$(MAKE) BUILD=$(OFFLOAD_BUILD) HYDRO_OFFLOAD=$(OFFLOAD) $(OFFLOAD_BUILD)/hydro

$(BUILD)/libhydro.a: $(LIB_OBJ)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/%.o: %.c | $(BUILD)/version.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(OMP_FLAGS) $(CPPFLAGS) $(PKG_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/test/%: test/unit/%.c $(BUILD)/libhydro.a
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(OMP_FLAGS) $(CPPFLAGS) -Itest $(PKG_CFLAGS) -o $@ $< $(BUILD)/libhydro.a $(LDFLAGS) $(LDLIBS)

$(BUILD)/test/%: test/mpi/%.c $(BUILD)/libhydro.a
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(OMP_FLAGS) $(CPPFLAGS) -Itest $(PKG_CFLAGS) -o $@ $< $(BUILD)/libhydro.a $(LDFLAGS) $(LDLIBS)

$(BUILD)/test/%: test/tools/%.c test/exact/exact.h $(BUILD)/libhydro.a
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(OMP_FLAGS) $(CPPFLAGS) -Itest $(PKG_CFLAGS) -o $@ $< $(BUILD)/libhydro.a $(LDFLAGS) $(LDLIBS)

# Version header: rewritten only when the revision changes, so builds stay incremental.
$(BUILD)/version.h: miniapp/version.h.in FORCE
	@mkdir -p $(BUILD)
	@rev=$$(git describe --always --dirty 2>/dev/null || echo unknown); \
	 sed "s/@REVISION@/$$rev/" miniapp/version.h.in > $@.tmp; \
	 if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

# Fuzz harnesses (make fuzz) and their corpus replayers, built with the tests (test/fuzz/fuzz.mk).
FUZZ_REPLAY_BIN :=
-include test/fuzz/fuzz.mk

tests: $(BUILD)/hydro $(TEST_BIN) $(FUZZ_REPLAY_BIN)

# Everything again under AddressSanitizer + UndefinedBehaviorSanitizer, in its own build dir
# (test/asan.t runs the unit tests, test/asan_mpi.t hydro and the MPI mesh test).
asan-tests:
	@$(MAKE) --no-print-directory BUILD=$(ASAN_BUILD) \
	  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined -DPAR_MIN_ITEMS=1" \
	  LDFLAGS="-fsanitize=address,undefined" tests

deps:
	@missing=""; \
	for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed$$' || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "make deps: installing$$missing"; \
	  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y$$missing; \
	else \
	  echo "make deps: missing Debian packages:$$missing"; \
	  echo "install them as root with:"; \
	  echo "  apt-get update && apt-get install -y$$missing"; \
	  exit 1; \
	fi

# Everything any build or test of the README needs: the base packages, SimGrid (make smpi) and
# clang with libFuzzer (make fuzz), the NVIDIA offload compiler and busybox (test/builds.t runs the
# GPU bundle, run/gpu_bundle.sh, in a root holding busybox and glibc only). CI (.ci/run) installs
# these, so that no test is skipped there. With them, Zoltan for SMPI (from Debian's archive, as
# the packages are: make smpi-zoltan).
deps-all:
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(sort $(DEB_PKGS) $(SMPI_PKGS) $(FUZZ_PKGS) gcc-12-offload-nvptx busybox-static curl)"
	sh run/smpi_zoltan.sh -o $(SMPI_ZOLTAN_BUILD)/zoltan

# The run, then the density of its final dump as a PNG (run/plot_field.sh), found in the deck's
# checkpoint_dir (the run's last dump is the newest file there). The sync_only case has no
# density: its picture is the owner rank of each cell.
run:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory all $(BUILD)/test/plotdata
	$(MPIRUN) -np $(NP) $(BUILD)/hydro $(DECK)
	@deck=$$($(BUILD)/hydro --check $(DECK)) || exit 1; \
	 dir=$$(printf '%s\n' "$$deck" | sed -n 's/^checkpoint_dir = //p'); \
	 var=density; printf '%s\n' "$$deck" | grep -q '^name = sync_only$$' && var=rank; \
	 if printf '%s\n' "$$deck" | grep -q '^checkpoint_period = -1$$'; then \
	   echo "make run: no picture: $(DECK) writes no dump (output.checkpoint_period = -1)"; \
	 else \
	   png=$$(HYDRO_BUILD=$(BUILD) sh run/plot_field.sh "$$dir" $$var) || \
	     { echo "make run: could not plot the $$var of the final dump in $$dir (see above)" >&2; exit 1; }; \
	   echo "make run: final $$var: $$png"; \
	 fi

# The SMPI builds for test/smpi.t, test/weak_scaling.t and test/smpi_zoltan.t, rebuilt by make
# check whenever SimGrid's smpicc is installed (so that no stale build is tested), the one with
# Zoltan when Zoltan for SMPI is built (make deps-all, make smpi-zoltan); without them those tests
# skip, saying so, except under CI=true (.ci/run), where a skip is a failure.
smpi-tests:
	@if command -v smpicc >/dev/null 2>&1; then \
	  $(MAKE) --no-print-directory smpi-build || exit 1; \
	  if [ -f $(SMPI_ZOLTAN_BUILD)/zoltan/.built ]; then $(MAKE) --no-print-directory smpi-zoltan-build || exit 1; \
	  else rm -f $(SMPI_ZOLTAN_BUILD)/hydro; \
	    echo "make check: no Zoltan for SMPI: its SMPI tests will skip (make smpi-zoltan builds it)"; fi; \
	else \
	  echo "make check: smpicc not found: the SMPI tests will skip (make deps-all installs SimGrid)"; \
	fi

check:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory tests
	@$(MAKE) --no-print-directory asan-tests
	@$(MAKE) --no-print-directory smpi-tests
	@$(MAKE) --no-print-directory offload # test/offload.t
	HYDRO_BUILD=$(BUILD) HYDRO_ASAN_BUILD=$(ASAN_BUILD) HYDRO_MPIRUN="$(MPIRUN)" prove --timer test/*.t

# The raw baselines of make bench (run/bench/*.c), linked with libhydro like the MPI tests.
BENCH_PROGS := $(patsubst run/bench/%.c,$(BUILD)/bench/%,$(wildcard run/bench/*.c))
$(BUILD)/bench/%: run/bench/%.c run/bench/median.h $(BUILD)/libhydro.a
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(OMP_FLAGS) $(CPPFLAGS) $(PKG_CFLAGS) -o $@ $< $(BUILD)/libhydro.a $(LDFLAGS) $(LDLIBS)

# Benchmarks (never part of make check, at most 10 minutes on 2 cores): grind time, memory,
# synchronisation, migration and checkpoint figures, each beside its baseline, in a dated
# report results/bench_<date>.md (run/bench_report.sh), printed at the end.
bench:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory all $(BENCH_PROGS)
	MPIRUN="$(MPIRUN)" HYDRO=$(abspath $(BUILD))/hydro BENCH_BIN=$(abspath $(BUILD))/bench sh run/bench_report.sh -n $(NP) -t $(THREADS)

# hydro for SimGrid SMPI ($(SMPI_BUILD)/hydro): installs SMPI_PKGS the way deps installs DEB_PKGS.
smpi:
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(SMPI_PKGS)"
	@$(MAKE) --no-print-directory smpi-build

smpi-build:
	@$(MAKE) --no-print-directory HYDRO_SMPI=1 BUILD=$(SMPI_BUILD) MPICC=smpicc $(SMPI_BUILD)/hydro

# The SMPI build with the zoltan backend ($(SMPI_ZOLTAN_BUILD)/hydro): Zoltan built with smpicc
# from Debian's Trilinos source (downloaded from the Debian archive once, 166 MB), then hydro.
smpi-zoltan:
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(SMPI_PKGS) curl"
	sh run/smpi_zoltan.sh -o $(SMPI_ZOLTAN_BUILD)/zoltan
	@$(MAKE) --no-print-directory smpi-zoltan-build

smpi-zoltan-build:
	@[ -f $(SMPI_ZOLTAN_BUILD)/zoltan/.built ] || \
	  { echo "make: no Zoltan for SMPI in $(SMPI_ZOLTAN_BUILD)/zoltan: make smpi-zoltan builds it" >&2; exit 2; }
	@$(MAKE) --no-print-directory HYDRO_SMPI=1 BUILD=$(SMPI_ZOLTAN_BUILD) SMPI_ZOLTAN=$(SMPI_ZOLTAN_BUILD)/zoltan \
	  MPICC=smpicc $(SMPI_ZOLTAN_BUILD)/hydro

# Regenerate the deck reference inside README.md from the schema table.
readme: $(BUILD)/hydro
	sh test/readme_reference.sh update $(BUILD)/hydro

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(SMPI_BUILD) $(FUZZ_BUILD) $(OFFLOAD_BUILD)
	@# the SMPI build with Zoltan, but not Zoltan itself nor its source tarball (a 166 MB download)
	find $(SMPI_ZOLTAN_BUILD) -mindepth 1 -maxdepth 1 ! -name zoltan ! -name '*.tar.gz' -exec rm -rf {} + 2>/dev/null || true

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
