# mk/examples.mk: the case studies of seed 004 and seed 000 (examples/*.c),
# one program each, built with -O3 like the seed into $(O)/examples/NAME and
# linked with libpmkit. tests/bench/examples.t runs them from make check.
EX_SRC := $(sort $(wildcard examples/*.c))
EX_BIN := $(EX_SRC:examples/%.c=$(O)/examples/%)
.PHONY: examples
examples: $(EX_BIN)
all: examples
$(EX_SRC:%.c=$(O)/obj/%.o): OPT = -O3 -g
# matmul also times OpenBLAS's cblas_dgemm when scripts/configure found it
ifeq ($(HAVE_OPENBLAS),1)
$(O)/obj/examples/matmul.o: CPPFLAGS += -DPMK_HAVE_OPENBLAS=1
$(O)/examples/matmul: EX_LIBS += $(OPENBLAS_LIBS)
endif
$(O)/examples/%: $(O)/obj/examples/%.o $(O)/libpmkit.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) $(EX_LIBS)
-include $(EX_SRC:%.c=$(O)/obj/%.d)
