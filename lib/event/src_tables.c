/*
 * src_tables.c: pmkit's own model tables (tbl_*.c, parsed by native.c) as
 * a source of native events. They serve what the installed libpfm4 lacks
 * (Zen 5 with Debian 12's libpfm4 4.13) and every table model when pmkit
 * is built without libpfm4. Pure.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "lib/event/source.h"
#include "lib/event/tbl.h"

static const char *tables_model(const char *model)
{
	const pmk__model *m = pmk__model_find(model);
	return m ? m->name : NULL;
}

static int tables_encode(const char *model, const char *pmu, uint32_t type,
			 const char *s, int col0, pmk_event *ev, pmk_diag *d)
{
	const pmk__model *m = pmk__model_find(model);
	int rc;
	if (!m || strstr(s, "::"))
		return PMK_ENOEVENT;
	rc = pmk__native_parse_model(m, pmu, s, col0, ev, d);
	if (rc == 0 && type != PMK_TYPE_UNRESOLVED)
		ev->leaf[0].type = type;
	return rc;
}

static int tables_has_event(const char *model, const char *name, size_t len)
{
	const pmk__model *m = pmk__model_find(model);
	for (int i = 0; m && i < m->nev; i++)
		if (strlen(m->ev[i].name) == len &&
		    !strncasecmp(m->ev[i].name, name, len))
			return 1;
	return 0;
}

static int tables_describe(const char *model, const char *name, size_t len,
			   char *buf, size_t size)
{
	static const struct {
		unsigned bit;
		const char *name;
	} mods[] = {{PMK__M_U, "u"},	     {PMK__M_K, "k"},
		    {PMK__M_H, "h"},	     {PMK__M_E, "e"},
		    {PMK__M_I, "i"},	     {PMK__M_C, "c=N"},
		    {PMK__M_T, "t"},	     {PMK__M_INTX, "intx"},
		    {PMK__M_INTXCP, "intxcp"}, {PMK__M_PRECISE, "precise=N"}};
	const pmk__model *m = pmk__model_find(model);
	size_t n;
	for (int i = 0; m && i < m->nev; i++) {
		const pmk__nevent *e = &m->ev[i];
		if (strlen(e->name) != len || strncasecmp(e->name, name, len))
			continue;
		n = (size_t)snprintf(buf, size, "%s::%s: %s", m->name, e->name,
				     e->desc);
		for (int j = 0; j < e->numask && n < size; j++)
			n += (size_t)snprintf(buf + n, size - n, "%s%s%s",
					      j ? ", " : "; unit masks: ",
					      e->umask[j].name,
					      e->umask[j].flags & PMK__UM_DFL
						  ? " [default]"
						  : "");
		for (int j = 0, k = 0; j < PMK__N(mods) && n < size; j++)
			if (e->mods & mods[j].bit)
				n += (size_t)snprintf(buf + n, size - n, "%s%s",
						      k++ ? ", "
							  : "; modifiers: ",
						      mods[j].name);
		return 0;
	}
	return PMK_ENOEVENT;
}

static int tables_foreach(const char *model, pmk__info_fn fn, void *arg)
{
	return pmk__native_foreach_model(pmk__model_find(model), fn, arg);
}

static int tables_models(int (*fn)(const char *model, const char *desc,
				   void *arg),
			 void *arg)
{
	for (int i = 0; pmk__models[i]; i++) {
		int rc = fn(pmk__models[i]->name, pmk__models[i]->desc, arg);
		if (rc)
			return rc;
	}
	return 0;
}

const pmk__source pmk__source_tables = {
    "pmkit tables", tables_model, tables_encode, tables_has_event,
    tables_describe, tables_foreach,
    tables_models,
};
