# mk/papi.mk: libpapi.so.7.0, PAPI 7.0's API on libpmkit (papi/, docs/papi.md).
#   papi/*.c: the library, compiled against the papi.h Debian's libpapi-dev
#       installs (scripts/deps.d/papi.sh: HAVE_PAPI, PAPI_INCDIR); the only
#       files that include papi.h
#   $(O)/gen/papi_presets.h: PAPI's preset names and codes, generated from
#       that header's papiStdEventDefs.h (never typed in)
#   $(O)/papi/libpapi.so.7.0 (SONAME libpapi.so.7.0) and libpapi.so: linked
#       with libpmkit's objects, exporting PAPI's names only, so that
#       LD_LIBRARY_PATH=$(O)/papi puts it under any program built for
#       Debian's PAPI 7.0
# Without the header the library is left out (configure's note names the
# package) and tests/papi skips.
ifeq ($(HAVE_PAPI),1)
PAPI_SRC := $(sort $(wildcard papi/*.c))
PAPI_OBJ := $(PAPI_SRC:%.c=$(O)/obj/%.o)
PAPI_SO := $(O)/papi/libpapi.so.7.0
.PHONY: papi
papi: $(PAPI_SO) $(O)/papi/libpapi.so
all: papi
$(O)/gen/papi_presets.h: $(PAPI_INCDIR)/papiStdEventDefs.h mk/papi.mk
	@mkdir -p $(dir $@)
	sed -n 's@^#define[ \t]*\(PAPI_[A-Z0-9_]*\)[ \t]*([ \t]*PAPI_[A-Z0-9_]*_idx[ \t]*|[ \t]*PAPI_PRESET_MASK[ \t]*)[ \t]*/\*[ \t]*\(.*[^ \t]\)[ \t]*\*/.*@{.code = \1, .type = PAPI__PRESET, .name = "\1", .pmk = "\1", .desc = "\2", .avail = -1},@p' \
	    $< | grep -v '"PAPI_END"' > $@.tmp && mv $@.tmp $@
$(O)/obj/papi/events.o: $(O)/gen/papi_presets.h
$(PAPI_SO): $(PAPI_OBJ) $(O)/libpmkit.a papi/libpapi.map
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libpapi.so.7.0 -Wl,--version-script,papi/libpapi.map \
	    $(filter-out -static,$(LDFLAGS)) -o $@ $(PAPI_OBJ) $(O)/libpmkit.a $(LDLIBS)
$(O)/papi/libpapi.so: $(PAPI_SO)
	ln -sf libpapi.so.7.0 $@
-include $(PAPI_OBJ:.o=.d)
endif
