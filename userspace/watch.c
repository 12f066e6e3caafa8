// SPDX-License-Identifier: GPL-2.0
/*
 * `mlock-audit watch [INTERVAL [COUNT]]` (or -i SEC -n COUNT): the summary
 * table every INTERVAL seconds, and the probe hits of each interval as a
 * live event view. The screen is cleared (ANSI) only on a terminal. SIGINT
 * ends it with 0.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "exit-codes.h"
#include "info.h"
#include "report.h"
#include "watch.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int usage_err(const char *what, const char *arg)
{
	fprintf(stderr, "%s: watch: %s '%s' (usage: %s watch [INTERVAL [COUNT]] or [-i SEC] [-n COUNT]; SEC > 0, decimals allowed; COUNT > 0)\n",
		MA_NAME, what, arg, MA_NAME);
	return MA_EXIT_USAGE;
}

/* watch [INTERVAL [COUNT]], as vmstat: the same as -i and -n. */
static int parse_args(const struct ma_opts *o, int argc, char **argv, double *secs,
		      int *count)
{
	*secs = o->interval;
	*count = o->count;
	if (argc > 3)
		return usage_err("unexpected argument", argv[3]);
	if (argc > 1) {
		if (o->interval_set)
			return usage_err("interval given twice, with -i and as", argv[1]);
		if (!ma_parse_seconds(argv[1], secs))
			return usage_err("bad interval", argv[1]);
	}
	if (argc > 2) {
		if (o->count_set)
			return usage_err("count given twice, with -n and as", argv[2]);
		if (!ma_parse_posint(argv[2], count))
			return usage_err("bad count", argv[2]);
	}
	return MA_EXIT_OK;
}

/* Sleep secs, or less if a signal stops the watch. */
static void nap(double secs)
{
	struct timespec ts;

	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - (double)ts.tv_sec) * 1e9);
	while (!stop && nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* What one refresh hands the next. */
struct watch_state {
	struct ma_probes probes[2];	/* this refresh's and the last one's */
	int cur;
	bool have_prev;
	double t_prev;
};

/*
 * Refresh @n (0 first) of @count (0: no end): the summary table and the
 * probe hits since the last refresh. Returns false when the watch must
 * stop, with *@ret the status to exit with.
 */
static bool refresh(const struct ma_opts *o, struct watch_state *w, double secs,
		    int n, int count, int *ret)
{
	char msg[MA_MSG_LEN];
	struct ma_report r;
	bool go_on = true;
	double t;

	*ret = ma_report_load(o, &r);
	t = now();
	if (!ma_report_printable(&r)) {
		fprintf(stderr, "%s: %s\n", MA_NAME, r.msg);
		ma_report_free(&r);
		return false;
	}
	if (isatty(STDOUT_FILENO))
		fputs("\033[H\033[2J", stdout);
	if (count)
		printf("mlock-audit watch: every %gs, refresh %d of %d (Ctrl-C stops)\n\n",
		       secs, n + 1, count);
	else
		printf("mlock-audit watch: every %gs, refresh %d (Ctrl-C stops)\n\n",
		       secs, n + 1);
	ma_report_print(o, &r, stdout);
	if (!*ret) {
		*ret = ma_parse_probes(o, &w->probes[w->cur], msg);
		if (*ret) {
			fprintf(stderr, "%s: %s\n", MA_NAME, msg);
			ma_report_free(&r);
			return false;
		}
		printf("\nProbe hits%s\n", w->have_prev ? " in the last interval" : "");
		ma_probes_table(&w->probes[w->cur], w->have_prev ? &w->probes[!w->cur] : NULL,
				t - w->t_prev, stdout);
		ma_probes_free(&w->probes[!w->cur]);
		w->have_prev = true;
		w->cur = !w->cur;
		if (ma_fail_over_exceeded(o, &r))
			*ret = MA_EXIT_FAIL_OVER;
	} else {
		ma_probes_free(&w->probes[!w->cur]);
		w->have_prev = false;
		/* the module may come: not loaded keeps watching */
		go_on = *ret == MA_EXIT_NOT_LOADED;
	}
	w->t_prev = t;
	ma_report_free(&r);
	fflush(stdout);
	return go_on;
}

int ma_cmd_watch(const struct ma_opts *o, int argc, char **argv)
{
	struct watch_state w = { .probes = { { NULL, 0 }, { NULL, 0 } } };
	int count = 0, done, ret;
	struct sigaction sa;
	double secs = 2;

	ret = parse_args(o, argc, argv, &secs, &count);
	if (ret)
		return ret;
	if (o->fmt != MA_FMT_TABLE) {
		fprintf(stderr, "%s: watch shows a table; for JSON or Prometheus run summary repeatedly\n",
			MA_NAME);
		return MA_EXIT_USAGE;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: nanosleep returns */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	for (done = 0; !stop && (!count || done < count); done++) {
		if (done)
			nap(secs);
		if (stop || !refresh(o, &w, secs, done, count, &ret))
			break;
	}
	ma_probes_free(&w.probes[0]);
	ma_probes_free(&w.probes[1]);
	if (stop)
		return MA_EXIT_OK;
	return ret;
}
