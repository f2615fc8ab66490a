# tests/fuzz/libfuzzer.mk: the libFuzzer targets of `make fuzz-libfuzzer`
# (the same sources and flags), with each source compiled once into
# $(LF)/obj and every target linked from those objects, instead of every
# target compiling the whole library again; and into a folder of one's own
# (LF, default $(O)/libfuzzer). Not part of the build; named by hand:
#   make -f Makefile -f tests/fuzz/libfuzzer.mk O=build-me -j2 libfuzzer-fast
#   build-me/libfuzzer/fuzz_events -max_total_time=60 tests/fuzz/corpus/events
LF       ?= $(O)/libfuzzer
LF_CFLAGS := -DPMK_LIBFUZZER -g -O1 -fsanitize=fuzzer-no-link,address,undefined
LF_OBJ   := $(LIB_SRC:%.c=$(LF)/obj/%.o)
LF_BIN   := $(FUZZ_SRC:tests/fuzz/%.c=$(LF)/%)

.PHONY: libfuzzer-fast
libfuzzer-fast: $(LF_BIN)
# the objects are kept (not intermediate files to delete)
.SECONDARY:

$(LF)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	clang $(CPPFLAGS) $(LF_CFLAGS) -MMD -MP -c $< -o $@
# headers and included sources (fuzz_opt.c includes cli/opt.c)
-include $(shell find $(LF)/obj -name '*.d' 2>/dev/null)

# a target's own extra sources (FUZZ_EXTRA_<target>, mk/*.mk) as objects
$(foreach t,$(FUZZ_SRC:tests/fuzz/%.c=%),\
	$(eval LF_EXTRA_$(t) := $(FUZZ_EXTRA_$(t):%.c=$(LF)/obj/%.o)))
.SECONDEXPANSION:
$(LF)/%: $(LF)/obj/tests/fuzz/%.o $$(LF_EXTRA_$$*) $(LF_OBJ)
	clang -fsanitize=fuzzer,address,undefined -o $@ $^ $(LDLIBS)
