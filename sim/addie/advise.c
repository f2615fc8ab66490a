/*
 * advise.c: the DRAM interface buffer watched by two Addies behind the
 * multiplexer (`pmkit addie membuf`), and the article's reasoning from
 * their readings to a watermark and a read-ahead setting (docs/addie.md).
 */
#include <math.h>

#include "pmkit/addie.h"

/* Run the requests through the buffer twice, the multiplexer switched to
 * (wb-hit, read-merge) and then (wb-full, rb-hit). */
int pmk_membuf_observe(const pmk_membuf_config *base, const pmk_mem_access *req,
		       size_t n, pmk_membuf_obs *r)
{
	static const int sel[2][2] = {
	    {PMK_MEMBUF_WB_HIT, PMK_MEMBUF_READ_MERGE},
	    {PMK_MEMBUF_WB_FULL, PMK_MEMBUF_RB_HIT}};
	for (int pass = 0; pass < 2; pass++) {
		pmk_membuf_config c = *base;
		pmk_membuf *m;
		int err;
		c.select[0] = sel[pass][0];
		c.select[1] = sel[pass][1];
		m = pmk_membuf_new(&c, &err);
		if (!m)
			return err;
		for (size_t i = 0; i < n; i++) {
			err = pmk_membuf_access(m, &req[i]);
			if (err) {
				pmk_membuf_free(m);
				return err;
			}
		}
		for (int u = 0; u < 2; u++) {
			pmk_addie_reading rd;
			pmk_addie_watch_read(&pmk_membuf_mux(m)->unit[u], &rd);
			/* an Addie that saw no event reads nothing */
			r->addie[sel[pass][u]] = rd.events ? rd.addie : NAN;
			r->mean[sel[pass][u]] = rd.mean;
		}
		for (int sg = 0; sg < PMK_MEMBUF_NSIGNALS; sg++) {
			r->exact[sg] = pmk_membuf_exact(m, sg);
			r->events[sg] = pmk_membuf_mux(m)->events[sg];
		}
		r->st = *pmk_membuf_stats_get(m);
		r->stall = pmk_membuf_stall(m);
		pmk_membuf_free(m);
	}
	return 0;
}

static void step(pmk_membuf_step *steps, int *n, int kind, unsigned wm,
		 int ra, unsigned higher, double v0, double v1, double v2)
{
	pmk_membuf_step *s;
	if (*n >= PMK_MEMBUF_MAX_STEPS)
		return;
	s = &steps[(*n)++];
	s->kind = kind;
	s->watermark = wm;
	s->read_ahead = ra;
	s->higher = higher;
	s->v[0] = v0;
	s->v[1] = v1;
	s->v[2] = v2;
}

static double or0(double v)
{
	return isnan(v) ? 0 : v;
}

int pmk_membuf_advise(const pmk_membuf_config *base, const pmk_mem_access *req,
		      size_t n, pmk_membuf_step *steps, int *nsteps,
		      unsigned *wm_out, int *ra_out)
{
	pmk_membuf_config c = *base;
	pmk_membuf_obs r, up;
	double off;
	int err;
	*nsteps = 0;
	c.watermark = c.wb_words / 2 ? c.wb_words / 2 : 1;
	c.read_ahead = 0;
	if ((err = pmk_membuf_observe(&c, req, n, &r)))
		return err;
	off = r.addie[PMK_MEMBUF_RB_HIT];
	c.read_ahead = 1;
	if ((err = pmk_membuf_observe(&c, req, n, &up)))
		return err;
	*ra_out = up.addie[PMK_MEMBUF_RB_HIT] - off >= 0.05;
	step(steps, nsteps, PMK_ADVISE_READ_AHEAD, c.watermark, *ra_out, 0,
	     off, up.addie[PMK_MEMBUF_RB_HIT], NAN);
	c.read_ahead = *ra_out;
	if ((err = pmk_membuf_observe(&c, req, n, &r)))
		return err;
	for (int k = 0; k < 8; k++) {
		double h = or0(r.addie[PMK_MEMBUF_WB_HIT]),
		       f = or0(r.addie[PMK_MEMBUF_WB_FULL]);
		unsigned hi =
		    c.watermark * 2 > c.wb_words ? c.wb_words : c.watermark * 2;
		if (f > 0.01 && c.watermark > 1) {
			step(steps, nsteps, PMK_ADVISE_LOWER, c.watermark,
			     c.read_ahead, 0, h, f, NAN);
			c.watermark /= 2;
			if ((err = pmk_membuf_observe(&c, req, n, &r)))
				return err;
			continue;
		}
		if (hi > c.watermark) {
			pmk_membuf_config c2 = c;
			double h2, f2;
			c2.watermark = hi;
			if ((err = pmk_membuf_observe(&c2, req, n, &up)))
				return err;
			h2 = or0(up.addie[PMK_MEMBUF_WB_HIT]);
			f2 = or0(up.addie[PMK_MEMBUF_WB_FULL]);
			if (h2 - h >= 0.02 && f2 <= 0.01) {
				step(steps, nsteps, PMK_ADVISE_RAISE,
				     c.watermark, c.read_ahead, hi, h, f, h2);
				c = c2;
				r = up;
				continue;
			}
			step(steps, nsteps,
			     f2 > 0.01 ? PMK_ADVISE_KEEP_FILLS
				       : PMK_ADVISE_KEEP_LITTLE,
			     c.watermark, c.read_ahead, hi, h, f, h2);
			break;
		}
		step(steps, nsteps, PMK_ADVISE_KEEP, c.watermark, c.read_ahead,
		     0, h, f, NAN);
		break;
	}
	*wm_out = c.watermark;
	return 0;
}

const char *pmk_membuf_step_conclusion(const pmk_membuf_step *s)
{
	switch (s->kind) {
	case PMK_ADVISE_READ_AHEAD:
		return s->read_ahead ? "read-ahead on: the prefetched lines "
				       "are used"
				     : "read-ahead off: prefetching does not "
				       "raise the hit average";
	case PMK_ADVISE_LOWER:
		return "the buffer fills: lower the watermark";
	case PMK_ADVISE_RAISE:
		return "writes merge more with a higher watermark: raise it";
	case PMK_ADVISE_KEEP_FILLS:
		return "keep: a higher watermark fills the buffer";
	case PMK_ADVISE_KEEP_LITTLE:
		return "keep: a higher watermark merges little more";
	default:
		return "keep";
	}
}

const unsigned pmk_membuf_sweep_watermarks[PMK_MEMBUF_SWEEP_NW] = {
    1, 2, 4, 6, 8, 12, 16, 20, 24, 28, 30, 32};

int pmk_membuf_sweep_run(const pmk_membuf_config *base,
			 const pmk_mem_access *req, size_t n,
			 pmk_membuf_sweep *out)
{
	pmk_membuf_config c = *base;
	int err;
	out->best_stall = ~0ull;
	out->best_watermark = 0;
	out->best_read_ahead = 0;
	for (int ra = 0; ra < 2; ra++)
		for (int w = 0; w < PMK_MEMBUF_SWEEP_NW; w++) {
			pmk_membuf_obs *r = &out->obs[ra][w];
			c.watermark = pmk_membuf_sweep_watermarks[w];
			c.read_ahead = ra;
			if ((err = pmk_membuf_observe(&c, req, n, r)))
				return err;
			if (r->stall < out->best_stall) {
				out->best_stall = r->stall;
				out->best_watermark = c.watermark;
				out->best_read_ahead = ra;
			}
		}
	if ((err = pmk_membuf_advise(base, req, n, out->steps, &out->nsteps,
				     &out->advised_watermark,
				     &out->advised_read_ahead)))
		return err;
	c = *base;
	c.watermark = out->advised_watermark;
	c.read_ahead = out->advised_read_ahead;
	return pmk_membuf_observe(&c, req, n, &out->advised);
}
