# mk/mpi.mk: libpmkit-mpi (mpi/, docs/mpi.md).
#   mpi/job.c, jread.c, jobsvg.c, jobagg.c, outfile.c: the job records and their
#       reports, no MPI header; part of the CLI (`pmkit mpi report`) always
#   mpi/rank.c, timing.c, clock.c, lastword.c, commrank.c, pmpi.c, pmpi_ext.c,
#       fortran.c: the PMPI
#       interposition library
#       $(O)/libpmkit-mpi.so, built when scripts/configure found an MPI
#       (HAVE_MPI, MPI_CFLAGS, MPI_LIBS); linked with libpmkit's objects so
#       that one preloaded file is enough (and a program's own pmk_region_*
#       calls resolve to the same copy)
#   tests/mpi/prog/*.c, *.f90: the MPI test programs, $(O)/mpi/NAME
MPI_JOB_SRC := mpi/job.c mpi/jread.c mpi/jobsvg.c mpi/jobagg.c mpi/outfile.c mpi/comm.c
MPI_JOB_OBJ := $(MPI_JOB_SRC:%.c=$(O)/obj/%.o)
CLI_SRC += $(MPI_JOB_SRC)
# the JSON reader's fuzz target needs the job objects (before the archive);
# FUZZ_EXTRA_<target>: the same sources for make fuzz-libfuzzer
FUZZ_EXTRA_fuzz_mpijson := $(MPI_JOB_SRC)
$(O)/fuzz/fuzz_mpijson: $(O)/obj/tests/fuzz/fuzz_mpijson.o $(O)/obj/tests/fuzz/driver.o $(MPI_JOB_OBJ) $(O)/libpmkit.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# the job records' unit test: the records, rank.c's name copy (no MPI)
$(O)/tests/mpi_test_mpijob: $(O)/obj/mpi/rank.o $(O)/obj/mpi/timing.o $(O)/obj/mpi/clock.o $(O)/obj/mpi/commrank.o $(MPI_JOB_OBJ)
$(O)/tests/mpi_test_mpijob: LDLIBS := $(O)/libpmkit.a $(LDLIBS)
# the timing of calls on made-up timelines (no MPI)
$(O)/tests/mpi_test_timing: $(O)/obj/mpi/timing.o $(O)/obj/mpi/clock.o
# the choice of the wrappers' clock, from made-up facts
$(O)/tests/mpi_test_clock: $(O)/obj/mpi/clock.o
-include $(O)/obj/mpi/rank.d $(O)/obj/mpi/timing.d $(O)/obj/mpi/clock.d $(O)/obj/mpi/commrank.d $(O)/obj/mpi/lastword.d

ifeq ($(HAVE_MPI),1)
MPI_SO := $(O)/libpmkit-mpi.so
MPI_PROG_C := $(sort $(wildcard tests/mpi/prog/*.c bench/compare/mpi/*.c))
MPI_PROG_F := $(if $(MPIFC),$(sort $(wildcard tests/mpi/prog/*.f90)))
MPI_PROG := $(patsubst %.c,$(O)/mpi/%,$(notdir $(MPI_PROG_C))) \
	    $(patsubst %.f90,$(O)/mpi/%,$(notdir $(MPI_PROG_F)))
.PHONY: mpi
mpi: $(MPI_SO) $(MPI_PROG)
all: mpi
$(O)/obj/mpi/pmpi.o $(O)/obj/mpi/pmpi_ext.o $(O)/obj/mpi/fortran.o: CPPFLAGS += $(MPI_CFLAGS)
$(MPI_SO): $(O)/obj/mpi/rank.o $(O)/obj/mpi/timing.o $(O)/obj/mpi/clock.o $(O)/obj/mpi/lastword.o $(O)/obj/mpi/commrank.o $(O)/obj/mpi/pmpi.o $(O)/obj/mpi/pmpi_ext.o $(O)/obj/mpi/fortran.o $(MPI_JOB_OBJ) $(O)/libpmkit.a
	$(CC) -shared $(filter-out -static,$(LDFLAGS)) -o $@ $^ $(MPI_LIBS) $(LDLIBS)
# Test and benchmark programs: plain MPI programs (no pmkit), built without
# sanitizers, so that the library can be preloaded into them in any build.
$(O)/mpi/%: tests/mpi/prog/%.c
	@mkdir -p $(dir $@)
	$(MPICC) -O2 -g -o $@ $< -lm -lpthread
$(O)/mpi/%: bench/compare/mpi/%.c
	@mkdir -p $(dir $@)
	$(MPICC) -O2 -g -o $@ $< -lm
# the one that uses pmkit's region API links with the library itself
$(O)/mpi/pmkregion: tests/mpi/prog/pmkregion.c $(MPI_SO)
	@mkdir -p $(dir $@)
	$(MPICC) -O2 -g -Iinclude -o $@ $< -L$(O) -lpmkit-mpi -Wl,-rpath,$(abspath $(O))
$(O)/mpi/%: tests/mpi/prog/%.f90
	@mkdir -p $(dir $@)
	$(MPIFC) -O2 -g -o $@ $<
-include $(O)/obj/mpi/pmpi.d $(O)/obj/mpi/pmpi_ext.d $(O)/obj/mpi/fortran.d
endif
