# mk/caliper.mk: a real PAPI tool on pmkit's libpapi (tests/caliper,
# docs/papi.md).
#   make check-caliper   builds Caliper from ../shared/third_party/ against
#                        pmkit's PAPI prefix once (tests/caliper/build.sh:
#                        about 8 minutes on two cores, cached in
#                        /var/cache/pmkit/caliper-COMMIT-KEY as root, else
#                        $(O)/caliper-COMMIT-KEY) and runs tests/caliper
# `make check` runs tests/caliper/caliper.t too, but never builds Caliper:
# until check-caliper has filled the cache, the test skips and says so.
.PHONY: check-caliper
ifeq ($(HAVE_PAPI),1)
check-caliper: $(O)/papi/libpapi.so.7.0 $(O)/pmkit
	sh tests/caliper/build.sh $(O)
	@sh tests/run $(O) tests/caliper/
else
check-caliper:
	@echo "check-caliper: skipped: pmkit is built without libpapi (Debian package libpapi-dev: papi.h)"
endif
