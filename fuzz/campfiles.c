/*
 * campfiles.c - what campaigns write: files written and fsynced, then
 * renamed into place (a reader, or a campaign killed at any moment, sees
 * either nothing or a complete file or bundle), finding bundles (the
 * traces, the counterexamples, info.json, repro.sh), and the options that
 * regenerate a trace.
 *
 * Sections: options; files; bundles.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "fuzz/camp_int.h"
#include "ir/fdio.h"
#include "ir/print.h"

/* ---- options ---- */

static void put_range(strbuf *sb, const char *opt, uint32_t lo, uint32_t hi)
{
	if (lo == hi)
		sb_printf(sb, " %s %u", opt, lo);
	else
		sb_printf(sb, " %s %u-%u", opt, lo, hi);
}

void camp_put_mask(strbuf *sb, uint64_t mask, int n, const char *(*name)(int))
{
	bool first = true;
	for (int i = 0; i < n; i++) {
		if (!(mask >> i & 1))
			continue;
		sb_printf(sb, "%s%s", first ? "" : ",", name(i));
		first = false;
	}
	if (first)
		sb_puts(sb, "none");
}

const char *camp_bug_name_i(int i)
{
	return opt_bug_name((opt_bug)i);
}

const char *camp_pass_name_i(int i)
{
	return opt_pass_name((opt_pass)i);
}

void camp_format_options(const gen_opts *g, const opt_config *cfg,
			 unsigned timeout_ms, strbuf *sb)
{
	sb_printf(sb, "--profile %s", gen_profile_name(g->profile));
	put_range(sb, "--length", g->min_len, g->max_len);
	put_range(sb, "--inputs", g->min_inputs, g->max_inputs);
	sb_printf(sb, " --width %d", g->width);
	if (!g->heap)
		sb_puts(sb, " --no-heap");
	opt_config def = opt_default_config();
	if (cfg->passes != def.passes) {
		sb_puts(sb, " --passes ");
		camp_put_mask(sb, cfg->passes, OPT_PASS_COUNT,
			      camp_pass_name_i);
	}
	if (cfg->bugs) {
		sb_puts(sb, " --inject ");
		camp_put_mask(sb, cfg->bugs, OPT_BUG_COUNT, camp_bug_name_i);
	}
	sb_printf(sb, " --timeout-ms %u", timeout_ms);
}

/* ---- files ----
 * Every file of a bundle is written and fsynced inside a directory with a
 * temporary name; the directory is then renamed into place.  Readers (and
 * a campaign killed at any moment) see either no bundle or a complete one. */

bool camp_write_file(const char *dir, const char *name, const strbuf *sb)
{
	char path[4800];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0)
		return false;
	bool ok =
	    !sb->oom && fd_write_all(fd, sb->buf, sb->len) && fsync(fd) == 0;
	return close(fd) == 0 && ok;
}

static void sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* Writes PATH atomically: a temporary file in the same directory, then
 * rename. */
bool camp_write_atomic(const char *path, const strbuf *sb)
{
	char tmp[4800];
	snprintf(tmp, sizeof tmp, "%s.tmp-%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0)
		return false;
	bool ok =
	    !sb->oom && fd_write_all(fd, sb->buf, sb->len) && fsync(fd) == 0;
	ok = close(fd) == 0 && ok;
	if (!ok || rename(tmp, path) != 0) {
		unlink(tmp);
		return false;
	}
	return true;
}

/* Removes a directory of plain files we wrote (no recursion needed). */
void camp_remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (d) {
		struct dirent *e;
		char path[4800];
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			unlink(path);
		}
		closedir(d);
	}
	rmdir(dir);
}

bool camp_make_dir(const char *path)
{
	return mkdir(path, 0777) == 0 || errno == EEXIST;
}

/* Renames the complete temporary bundle TMP to FINAL.  Returns 1 when it
 * is new, 0 when FINAL already exists (another worker or an earlier
 * session saved the same signature), -1 on error. */
int camp_publish_dir(const char *tmp, const char *final, const char *parent)
{
	sync_dir(tmp);
	if (rename(tmp, final) == 0) {
		sync_dir(parent);
		return 1;
	}
	int e = errno;
	camp_remove_dir(tmp);
	return e == EEXIST || e == ENOTEMPTY ? 0 : -1;
}

static void iso_time(char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void put_header(strbuf *sb, const char *what, const camp_finding *f,
		       const camp_opts *o)
{
	sb_printf(sb,
		  "# %s\n# trace %s (campaign seed %llu, stream %u, "
		  "index %llu)\n",
		  what, f->trace_id, (unsigned long long)o->seed, f->stream,
		  (unsigned long long)f->index);
}

static void put_args(strbuf *sb, const ver_result *r)
{
	if (!r || !r->inputs || r->ninputs == 0)
		return;
	sb_puts(sb, "# args: ");
	for (uint32_t i = 0; i < r->ninputs; i++) {
		if (i)
			sb_puts(sb, ", ");
		ir_print_int(r->width ? r->width : 64, r->inputs[i], sb);
	}
	sb_puts(sb, "\n");
}

static void put_repro(strbuf *sb, const camp_opts *o, const camp_finding *f)
{
	strbuf opts;
	sb_init(&opts);
	camp_format_options(&o->gen, &o->cfg, o->timeout_ms, &opts);
	xo_format_options(o->optimizer, &opts);
	sb_printf(sb,
		  "#!/bin/sh\n"
		  "# Reproduces finding %s.\n"
		  "# Run from this directory with jitprove on PATH (or set "
		  "JITPROVE).\n"
		  "J=${JITPROVE:-jitprove}\n"
		  "# Regenerate the original trace from its seed, optimize it "
		  "and verify\n# the pair again (exit 1 = the failure is "
		  "still there):\n"
		  "\"$J\" fuzz --replay %s %s\n",
		  f->sig, f->trace_id, opts.buf);
	if (!strcmp(f->kind, "audit"))
		sb_printf(
		    sb,
		    "# The audit disagreement (docs/trust.md), not "
		    "reduced:\n\"$J\" fuzz --replay %s %s --audit-rate 1\n",
		    f->trace_id, opts.buf);
	if (strcmp(f->kind, "crash") != 0 && strcmp(f->kind, "audit") != 0) {
		strbuf ro;
		sb_init(&ro);
		if (o->cfg.bugs) {
			sb_puts(&ro, " --inject ");
			camp_put_mask(&ro, o->cfg.bugs, OPT_BUG_COUNT,
				      camp_bug_name_i);
		}
		opt_config def = opt_default_config();
		if (o->cfg.passes != def.passes) {
			sb_puts(&ro, " --passes ");
			camp_put_mask(&ro, o->cfg.passes, OPT_PASS_COUNT,
				      camp_pass_name_i);
		}
		xo_format_options(o->optimizer, &ro);
		sb_printf(sb,
			  "# Optimize the reduced trace afresh and verify it "
			  "(prints the pair and\n# the counterexample):\n"
			  "\"$J\" reduce reduced.trace --failargs --width %d%s "
			  "--timeout-ms %u\n",
			  o->gen.width, ro.buf, o->timeout_ms);
		sb_release(&ro);
	}
	sb_printf(sb, "# The campaign that found it:\n# %s\n",
		  o->cmdline ? o->cmdline : "jitprove fuzz");
	sb_release(&opts);
}

static void put_info(strbuf *sb, const camp_opts *o, const camp_finding *f,
		     const red_stats *rs, const char *obl)
{
	char z3[32], when[32];
	camp_z3_version(z3, sizeof z3);
	iso_time(when, sizeof when);
	strbuf tmp;
	sb_init(&tmp);
	sb_puts(sb, "{\n  \"signature\": ");
	sb_json_str(sb, f->sig);
	sb_puts(sb, ",\n  \"kind\": ");
	sb_json_str(sb, f->kind);
	sb_puts(sb, ",\n  \"obligation\": ");
	sb_json_str(sb, obl ? obl : "");
	sb_puts(sb, ",\n  \"what\": ");
	sb_json_str(sb, f->what);
	sb_puts(sb, ",\n  \"injected_bugs\": ");
	camp_put_mask(&tmp, o->cfg.bugs, OPT_BUG_COUNT, camp_bug_name_i);
	sb_json_str(sb, tmp.buf);
	sb_reset(&tmp);
	sb_puts(sb, ",\n  \"passes\": ");
	camp_put_mask(&tmp, o->cfg.passes, OPT_PASS_COUNT, camp_pass_name_i);
	sb_json_str(sb, tmp.buf);
	sb_reset(&tmp);
	sb_printf(sb,
		  ",\n  \"trace_id\": \"%s\",\n  \"trace_seed\": \"%llu\",\n"
		  "  \"campaign_seed\": \"%llu\",\n"
		  "  \"stream\": %u,\n  \"index\": %llu,\n",
		  f->trace_id, (unsigned long long)f->trace_seed,
		  (unsigned long long)o->seed, f->stream,
		  (unsigned long long)f->index);
	sb_printf(sb,
		  "  \"generator\": {\"profile\": \"%s\", \"length\": [%u, "
		  "%u], \"inputs\": [%u, %u], \"width\": %d},\n"
		  "  \"timeout_ms\": %u,\n",
		  gen_profile_name(o->gen.profile), o->gen.min_len,
		  o->gen.max_len, o->gen.min_inputs, o->gen.max_inputs,
		  o->gen.width, o->timeout_ms);
	if (rs)
		sb_printf(sb,
			  "  \"reduction\": {\"ops_before\": %u, "
			  "\"ops_after\": %u, \"candidates\": %u, "
			  "\"kept\": %u, \"complete\": %s, \"ms\": %.0f},\n",
			  rs->ops_before, rs->ops_after, rs->evals,
			  rs->accepted, rs->complete ? "true" : "false",
			  rs->ms);
	sb_printf(sb,
		  "  \"versions\": {\"jitprove\": \"%s\", \"z3\": \"%s\"},\n"
		  "  \"found_at\": \"%s\",\n  \"campaign_command\": ",
		  JP_VERSION, z3, when);
	sb_json_str(sb, o->cmdline ? o->cmdline : "jitprove fuzz");
	camp_format_options(&o->gen, &o->cfg, o->timeout_ms, &tmp);
	xo_format_options(o->optimizer, &tmp);
	sb_printf(sb, ",\n  \"replay_command\": ");
	strbuf cmd;
	sb_init(&cmd);
	sb_printf(&cmd, "jitprove fuzz --replay %s %s", f->trace_id, tmp.buf);
	sb_json_str(sb, cmd.buf);
	sb_puts(sb, "\n}\n");
	sb_release(&cmd);
	sb_release(&tmp);
}

static bool write_bundle_files(const char *dir, const camp_opts *o,
			       const camp_finding *f, const camp_bundle *b)
{
	strbuf sb;
	sb_init(&sb);
	bool ok = true;
	char what[300];

	snprintf(what, sizeof what, "original trace of finding %s", f->sig);
	put_header(&sb, what, f, o);
	gen_print_annotated(b->orig, b->ex, &sb);
	ok &= camp_write_file(dir, "orig.trace", &sb);

	sb_reset(&sb);
	put_header(&sb, "the optimizer's output for orig.trace", f, o);
	if (b->out->opt)
		ir_print(b->out->opt, &sb);
	else
		sb_printf(&sb, "# the optimizer failed: %s\n", b->out->what);
	ok &= camp_write_file(dir, "opt.trace", &sb);

	sb_reset(&sb);
	if (!strcmp(f->kind, "crash"))
		sb_puts(&sb,
			"# not reduced: jitprove crashed on orig.trace "
			"(reducing it in the campaign would crash again)\n");
	else
		sb_printf(&sb,
			  "# reduced from orig.trace (%u ops -> %u); '# args:' "
			  "is a counterexample\n",
			  f->ops_orig, f->ops_reduced);
	put_args(&sb, b->fin->have_res ? &b->fin->res : NULL);
	ir_print(b->reduced, &sb);
	ok &= camp_write_file(dir, "reduced.trace", &sb);

	sb_reset(&sb);
	sb_puts(&sb, "# the optimizer's output for reduced.trace\n");
	put_args(&sb, b->fin->have_res ? &b->fin->res : NULL);
	if (b->fin->opt)
		ir_print(b->fin->opt, &sb);
	else
		sb_printf(&sb, "# the optimizer failed: %s\n", b->fin->what);
	ok &= camp_write_file(dir, "reduced.opt.trace", &sb);

	sb_reset(&sb);
	sb_printf(&sb, "%s: %s\n\n== reduced pair ==\n", f->kind, f->what);
	if (b->fin->have_res && b->fin->res.cex_text)
		sb_puts(&sb, b->fin->res.cex_text);
	else
		sb_printf(&sb, "%s\n", b->fin->what);
	sb_puts(&sb, "\n== original pair ==\n");
	if (b->out->have_res && b->out->res.cex_text)
		sb_puts(&sb, b->out->res.cex_text);
	else
		sb_printf(&sb, "%s\n", b->out->what);
	ok &= camp_write_file(dir, "cex.txt", &sb);

	sb_reset(&sb);
	put_info(&sb, o, f, b->rs, b->fin->obl);
	ok &= camp_write_file(dir, "info.json", &sb);

	sb_reset(&sb);
	put_repro(&sb, o, f);
	ok &= camp_write_file(dir, "repro.sh", &sb);
	char path[4800];
	snprintf(path, sizeof path, "%s/repro.sh", dir);
	chmod(path, 0755); /* runnable by all, writable by the owner only */
	sb_release(&sb);
	return ok;
}

int camp_save_finding(const camp_opts *o, const char *tmpname,
		      const camp_finding *f, const camp_bundle *b)
{
	char parent[4096], tmp[4400], final[4400];
	snprintf(parent, sizeof parent, "%s/findings", o->outdir);
	snprintf(tmp, sizeof tmp, "%s/%s", parent, tmpname);
	snprintf(final, sizeof final, "%s/%s", parent, f->sig);
	camp_remove_dir(tmp);
	if (mkdir(tmp, 0777) != 0)
		return -1;
	if (!write_bundle_files(tmp, o, f, b)) {
		camp_remove_dir(tmp);
		return -1;
	}
	return camp_publish_dir(tmp, final, parent);
}
