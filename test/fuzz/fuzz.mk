# Fuzzing (included by the Makefile): corpus replayers built with the tests, and make fuzz.
#
# Replayers: each harness linked with test/fuzz/replay.c instead of libFuzzer, by $(CC) with the
# flags of the unit tests, so asan-tests builds them under ASan + UBSan; test/fuzz.t runs them
# on the corpus and on every crash file ever found.
FUZZ_HARNESSES := deck gmsh checkpoint
FUZZ_REPLAY_BIN += $(FUZZ_HARNESSES:%=$(BUILD)/test/fuzz_%_replay)

$(BUILD)/test/fuzz_%_replay: test/fuzz/fuzz_%.c test/fuzz/replay.c test/fuzz/fuzz.h $(BUILD)/libhydro.a
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(OMP_FLAGS) $(CPPFLAGS) -Itest/fuzz $(PKG_CFLAGS) -o $@ test/fuzz/fuzz_$*.c test/fuzz/replay.c \
	  $(BUILD)/libhydro.a $(LDFLAGS) $(LDLIBS)

# make fuzz: the harnesses built by clang with libFuzzer + ASan + UBSan into $(FUZZ_BUILD)/
# (libhydro too, through mpicc with OMPI_CC, without OpenMP: clang's runtime is another package), each run FUZZ_SECONDS on the seed corpus
# (test/fuzz/campaign.sh: new inputs stay in $(FUZZ_BUILD)/corpus/, crash files are copied
# to test/fuzz/crashes/<harness>/ and fail the target). FUZZ_PKGS are installed by make fuzz
# and make deps-all, the way make deps installs DEB_PKGS. make fuzz-build builds the harnesses
# without installing or running anything (test/builds.t, which skips without clang except in CI).
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_CLANG ?= clang-14
FUZZ_PKGS := clang-14 libclang-rt-14-dev
FUZZ_CFLAGS := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
               -fno-sanitize-recover=undefined
FUZZ_BIN := $(FUZZ_HARNESSES:%=$(BUILD)/fuzz/fuzz_%)

.PHONY: fuzz-harnesses fuzz-build
fuzz:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(FUZZ_PKGS)"
	@$(MAKE) --no-print-directory fuzz-build
	FUZZ_SECONDS=$(FUZZ_SECONDS) sh test/fuzz/campaign.sh $(FUZZ_BUILD) $(FUZZ_HARNESSES)

fuzz-build:
	@OMPI_CC=$(FUZZ_CLANG) $(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CFLAGS="$(FUZZ_CFLAGS)" OPENMP=0 \
	  LDFLAGS="-fsanitize=address,undefined" fuzz-harnesses

fuzz-harnesses: $(FUZZ_BIN)

# Built only inside make fuzz, where CC is mpicc running clang (OMPI_CC) and CFLAGS FUZZ_CFLAGS.
$(BUILD)/fuzz/fuzz_%: test/fuzz/fuzz_%.c test/fuzz/fuzz.h $(BUILD)/libhydro.a
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) -Itest/fuzz $(PKG_CFLAGS) -fsanitize=fuzzer -o $@ $< \
	  $(BUILD)/libhydro.a $(LDFLAGS) $(LDLIBS)
