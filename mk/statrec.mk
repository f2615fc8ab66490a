# The stat record reader's fuzz target (tests/fuzz/fuzz_statrec.c) prints
# what it read with stat's printers: cli/stat_output.c (with its
# --metric-only part, cli/stat_metric_only.c, and perf's metrics,
# cli/stat_shadow.c) and the JSON helpers
# it uses (cli/json.c), linked before the archive.
STATREC_FUZZ_SRC := cli/stat_output.c cli/stat_metric_only.c cli/stat_shadow.c \
	cli/json.c
FUZZ_EXTRA_fuzz_statrec := $(STATREC_FUZZ_SRC)
$(O)/fuzz/fuzz_statrec: $(O)/obj/tests/fuzz/fuzz_statrec.o $(O)/obj/tests/fuzz/driver.o $(STATREC_FUZZ_SRC:%.c=$(O)/obj/%.o) $(O)/libpmkit.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
