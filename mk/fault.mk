# mk/fault.mk: the fault injector of tests/fault (an LD_PRELOAD library,
# tests/fault/interpose.c -> $(O)/fault/libpmkfault.so). It is built without
# sanitizers in both builds: tests/fault/fault.t preloads it into the plain
# and the sanitized pmkit alike (ASan is told not to insist on coming first).
FAULT_LIB := $(O)/fault/libpmkfault.so
$(FAULT_LIB): tests/fault/interpose.c
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -O2 -g $(WARN) -o $@ $< -ldl
tests: $(FAULT_LIB)
