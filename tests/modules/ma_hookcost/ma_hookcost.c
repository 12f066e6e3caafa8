// SPDX-License-Identifier: GPL-2.0
/*
 * ma_hookcost: test-only, for tests/guest/bench/hook-cost.sh. At load it measures, in one boot, what an entry hook costs
 * per call of a traced function, for each mechanism that could carry the
 * observation hooks of src/hook.c:
 *
 *   none                  no hook (the baseline)
 *   kprobe                register_kprobe(), pre_handler only; on a
 *                         function with __fentry__ it sits on ftrace
 *   ftrace_ops            a plain struct ftrace_ops, no flags
 *   ftrace_ops_regs       the same with FTRACE_OPS_FL_SAVE_REGS
 *   ftrace_ops_recursion  the same with FTRACE_OPS_FL_RECURSION (the
 *                         callback is its own recursion guard, so ftrace
 *                         calls it without its assist function)
 *   fprobe                register_fprobe(), entry_handler only (absent
 *                         where CONFIG_FPROBE is off: Debian 6.1)
 *   kprobe+ftrace_ops     both on the one function: two users of one site,
 *                         as with a livepatch and a probe; ftrace then
 *                         calls its list function
 *
 * The target is ma_hookcost_target(), a traced function of this module.
 * Each round times `calls` direct calls of it with ktime_get_ns(),
 * preemption off (so every hit lands on this CPU), for every mode in
 * turn (the hook registered before the timed loop, removed after it);
 * the median round of each mode is reported. Every handler adds one to a
 * per-CPU counter; a mode is exact when, in every round, each hook
 * counted each call once.
 *
 * Then two checks of ftrace_set_filter() with "!NAME" on a registered
 * ftrace_ops (can a per-function ops be quietened without unregistering?):
 *   notfilter-pair  filter {target, spare}; "!target" then calls target
 *   notfilter-only  filter {target}; "!target" leaves the filter empty,
 *                   which ftrace reads as "every function": the callback
 *                   counts the target's calls and all others apart. Only
 *                   with notfilter_only=1: under TCG the guests of 6.1 and
 *                   6.12 then printed nothing more until their timeouts
 *                   (300 s, 900 s), so the benchmark leaves it off.
 *
 * Output (pr_info, one line each, read by the guest script from dmesg):
 *   HOOKCOST kernel=R info ibt_config=0|1 ibt_active=0|1 calls=N rounds=N
 *   HOOKCOST kernel=R mode=M calls=N rounds=N ns_per_call=X
 *            ns_per_hit_over_none=Y min=X max=X hits=N hits2=N missed=N
 *            exact=yes|no [on_ftrace=0|1]
 *   HOOKCOST kernel=R mode=M status=unavailable err=E
 *   HOOKCOST kernel=R mode=notfilter-pair before=N after=N other=N result=R
 *   HOOKCOST kernel=R mode=notfilter-only before=N after=N other=N result=R
 * ns_per_call is the median round's, min and max the fastest and slowest
 * round's; hits/hits2 are totals over all rounds; "a hit" is one call of the hooked
 * function, so ns_per_hit_over_none = ns_per_call - ns_per_call of none.
 * Init returns 0 (rmmod it afterwards); it fails only on -ENOMEM.
 */
#include <linux/fprobe.h>
#include <linux/ftrace.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/utsname.h>
#include <linux/version.h>
#include <asm/cpufeature.h>

static unsigned long calls = 1000000;
module_param(calls, ulong, 0444);
MODULE_PARM_DESC(calls, "calls of the target per round (default 1000000)");
static unsigned int rounds = 5;
module_param(rounds, uint, 0444);
MODULE_PARM_DESC(rounds, "rounds per mode; the median is reported (default 5)");
static bool notfilter_only;
module_param(notfilter_only, bool, 0444);
MODULE_PARM_DESC(notfilter_only, "also run the notfilter-only check (traces every function; off by default)");

#define MA_TARGET "ma_hookcost_target"
#define MA_SPARE "ma_hookcost_spare"

static DEFINE_PER_CPU(unsigned long, ma_hits_a);	/* kprobe, fprobe */
static DEFINE_PER_CPU(unsigned long, ma_hits_b);	/* ftrace_ops */
static DEFINE_PER_CPU(unsigned long, ma_hits_other);	/* notfilter-only */
static int ma_sink;

/*
 * Traced (has __fentry__: this file is not notrace); noipa keeps GCC from
 * inlining, cloning or assuming anything about it at the call site.
 */
static noinline __attribute__((__noipa__)) int ma_hookcost_target(int x)
{
	barrier();
	return x + 1;
}

/* in the notfilter-pair filter, never called */
static noinline __attribute__((__noipa__)) __used int ma_hookcost_spare(int x)
{
	barrier();
	return x - 1;
}

static u64 ma_loop(unsigned long n)
{
	unsigned long i;
	u64 t0, t1;
	int acc = 0;

	preempt_disable();
	t0 = ktime_get_ns();
	for (i = 0; i < n; i++)
		acc += ma_hookcost_target((int)i);
	t1 = ktime_get_ns();
	preempt_enable();
	WRITE_ONCE(ma_sink, acc);
	return t1 - t0;
}

static unsigned long ma_sum(unsigned long __percpu *c)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += *per_cpu_ptr(c, cpu);
	return sum;
}

static void ma_zero(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		per_cpu(ma_hits_a, cpu) = 0;
		per_cpu(ma_hits_b, cpu) = 0;
		per_cpu(ma_hits_other, cpu) = 0;
	}
}

/* ---- kprobe ---- */

static struct kprobe ma_kp;

static int ma_kp_pre(struct kprobe *kp, struct pt_regs *regs)
{
	this_cpu_inc(ma_hits_a);
	return 0;
}
NOKPROBE_SYMBOL(ma_kp_pre);

static int ma_kp_start(void)
{
	memset(&ma_kp, 0, sizeof(ma_kp));
	ma_kp.symbol_name = MA_TARGET;
	ma_kp.pre_handler = ma_kp_pre;
	return register_kprobe(&ma_kp);
}

/* ---- ftrace_ops ---- */

static struct ftrace_ops ma_ops;

static void ma_ops_func(unsigned long ip, unsigned long parent_ip,
			struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	this_cpu_inc(ma_hits_b);
}

/* notfilter-only: the target's calls and every other function's apart */
static void ma_ops_func_ip(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	if (ip - (unsigned long)ma_hookcost_target < 16)
		this_cpu_inc(ma_hits_b);
	else
		this_cpu_inc(ma_hits_other);
}

/* ftrace_set_filter() may write to the pattern it parses: give it a copy */
static int ma_set_filter(struct ftrace_ops *ops, const char *pat, int reset)
{
	char buf[64];

	strscpy(buf, pat, sizeof(buf));
	return ftrace_set_filter(ops, (unsigned char *)buf, strlen(buf), reset);
}

static int ma_ops_start(ftrace_func_t func, unsigned long flags)
{
	int ret;

	memset(&ma_ops, 0, sizeof(ma_ops));
	ma_ops.func = func;
	ma_ops.flags = flags;
	ret = ma_set_filter(&ma_ops, MA_TARGET, 1);
	if (!ret)
		ret = register_ftrace_function(&ma_ops);
	if (ret)
		ftrace_free_filter(&ma_ops);
	return ret;
}

static void ma_ops_stop(void)
{
	unregister_ftrace_function(&ma_ops);
	ftrace_free_filter(&ma_ops);
}

/* ---- fprobe: the entry handler's type differs by kernel ---- */

static struct fprobe ma_fp;

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
/* 6.1: void, pt_regs (and CONFIG_FPROBE is off in Debian's 6.1) */
static void ma_fp_entry(struct fprobe *fp, unsigned long entry_ip,
			struct pt_regs *regs, void *data)
{
	this_cpu_inc(ma_hits_a);
}
#define MA_FP_SIG "void(fp,entry_ip,pt_regs*,data)"
#elif LINUX_VERSION_CODE < KERNEL_VERSION(6, 14, 0)
/* 6.12: int, ret_ip, pt_regs */
static int ma_fp_entry(struct fprobe *fp, unsigned long entry_ip,
		       unsigned long ret_ip, struct pt_regs *regs, void *data)
{
	this_cpu_inc(ma_hits_a);
	return 0;
}
#define MA_FP_SIG "int(fp,entry_ip,ret_ip,pt_regs*,data)"
#else
/* 6.14 on (fprobe on fgraph), 7.3: int, ret_ip, ftrace_regs */
static int ma_fp_entry(struct fprobe *fp, unsigned long entry_ip,
		       unsigned long ret_ip, struct ftrace_regs *fregs,
		       void *data)
{
	this_cpu_inc(ma_hits_a);
	return 0;
}
#define MA_FP_SIG "int(fp,entry_ip,ret_ip,ftrace_regs*,data)"
#endif
NOKPROBE_SYMBOL(ma_fp_entry);

static int ma_fp_start(void)
{
	memset(&ma_fp, 0, sizeof(ma_fp));
	ma_fp.entry_handler = ma_fp_entry;
	return register_fprobe(&ma_fp, MA_TARGET, NULL);
}

/* ---- the modes ---- */

enum { M_NONE, M_KPROBE, M_OPS, M_OPS_REGS, M_OPS_REC, M_FPROBE, M_KPROBE_OPS, NR_MODES };

static const char *const ma_mode_name[NR_MODES] = {
	"none", "kprobe", "ftrace_ops", "ftrace_ops_regs",
	"ftrace_ops_recursion", "fprobe", "kprobe+ftrace_ops",
};
/* hits each mode counts per call: on counter a, on counter b */
static const unsigned int ma_want_a[NR_MODES] = { 0, 1, 0, 0, 0, 1, 1 };
static const unsigned int ma_want_b[NR_MODES] = { 0, 0, 1, 1, 1, 0, 1 };

struct ma_result {
	u64 *ns;		/* per round */
	unsigned int done;	/* rounds run */
	int err;		/* registration failed: not run again */
	bool exact;
	bool on_ftrace;		/* kprobe modes: KPROBE_FLAG_FTRACE */
	unsigned long hits, hits2, missed;
};

static struct ma_result ma_res[NR_MODES];

static int ma_mode_start(int m)
{
	int ret;

	switch (m) {
	case M_KPROBE:
		return ma_kp_start();
	case M_OPS:
		return ma_ops_start(ma_ops_func, 0);
	case M_OPS_REGS:
		return ma_ops_start(ma_ops_func, FTRACE_OPS_FL_SAVE_REGS);
	case M_OPS_REC:
		return ma_ops_start(ma_ops_func, FTRACE_OPS_FL_RECURSION);
	case M_FPROBE:
		return ma_fp_start();
	case M_KPROBE_OPS:
		ret = ma_kp_start();
		if (ret)
			return ret;
		ret = ma_ops_start(ma_ops_func, 0);
		if (ret)
			unregister_kprobe(&ma_kp);
		return ret;
	}
	return 0;
}

static void ma_mode_stop(int m, struct ma_result *r)
{
	switch (m) {
	case M_KPROBE:
		r->on_ftrace = kprobe_ftrace(&ma_kp);
		r->missed += ma_kp.nmissed;
		unregister_kprobe(&ma_kp);
		break;
	case M_OPS:
	case M_OPS_REGS:
	case M_OPS_REC:
		ma_ops_stop();
		break;
	case M_FPROBE:
		r->missed += ma_fp.nmissed;
		unregister_fprobe(&ma_fp);
		break;
	case M_KPROBE_OPS:
		r->on_ftrace = kprobe_ftrace(&ma_kp);
		r->missed += ma_kp.nmissed;
		ma_ops_stop();
		unregister_kprobe(&ma_kp);
		break;
	}
}

static void ma_round(int m)
{
	struct ma_result *r = &ma_res[m];
	unsigned long a, b;
	u64 ns;

	if (r->err)
		return;
	ma_zero();
	r->err = ma_mode_start(m);
	if (r->err)
		return;
	ns = ma_loop(calls);
	ma_mode_stop(m, r);
	a = ma_sum(&ma_hits_a);
	b = ma_sum(&ma_hits_b);
	r->hits += a;
	r->hits2 += b;
	if (a != ma_want_a[m] * calls || b != ma_want_b[m] * calls)
		r->exact = false;
	r->ns[r->done++] = ns;
}

static int ma_cmp_u64(const void *x, const void *y)
{
	u64 a = *(const u64 *)x, b = *(const u64 *)y;

	return a < b ? -1 : a > b;
}

/* median ns of the rounds, in hundredths of a ns per call */
static s64 ma_centi_per_call(struct ma_result *r)
{
	sort(r->ns, r->done, sizeof(u64), ma_cmp_u64, NULL);
	return div64_u64(r->ns[r->done / 2] * 100, calls);
}

static void ma_print_centi(char *buf, size_t len, s64 c)
{
	snprintf(buf, len, "%s%lld.%02lld", c < 0 ? "-" : "",
		 (c < 0 ? -c : c) / 100, (c < 0 ? -c : c) % 100);
}

static void ma_report(int m, s64 none)
{
	struct ma_result *r = &ma_res[m];
	char per[32], over[32], lo[32], hi[32];
	s64 c;

	if (r->err || !r->done) {
		pr_info("HOOKCOST kernel=%s mode=%s status=unavailable err=%d%s\n",
			utsname()->release, ma_mode_name[m], r->err,
			m == M_FPROBE && !IS_ENABLED(CONFIG_FPROBE) ?
			" (CONFIG_FPROBE is off)" : "");
		return;
	}
	c = ma_centi_per_call(r);	/* sorts r->ns */
	ma_print_centi(per, sizeof(per), c);
	ma_print_centi(over, sizeof(over), c - none);
	ma_print_centi(lo, sizeof(lo), div64_u64(r->ns[0] * 100, calls));
	ma_print_centi(hi, sizeof(hi), div64_u64(r->ns[r->done - 1] * 100, calls));
	pr_info("HOOKCOST kernel=%s mode=%s calls=%lu rounds=%u ns_per_call=%s ns_per_hit_over_none=%s min=%s max=%s hits=%lu hits2=%lu missed=%lu exact=%s%s\n",
		utsname()->release, ma_mode_name[m], calls, r->done, per, over,
		lo, hi, r->hits, r->hits2, r->missed, r->exact ? "yes" : "no",
		m == M_KPROBE || m == M_KPROBE_OPS ?
		(r->on_ftrace ? " on_ftrace=1" : " on_ftrace=0") : "");
}

/*
 * "!NAME" on a registered ops. @spare: the filter also holds the spare
 * function, so it is not empty once the target is removed.
 */
static void ma_notfilter(bool spare)
{
	const char *name = spare ? "notfilter-pair" : "notfilter-only";
	unsigned long before, after, other;
	const char *result;
	int ret;

	ma_zero();
	memset(&ma_ops, 0, sizeof(ma_ops));
	ma_ops.func = ma_ops_func_ip;
	ret = ma_set_filter(&ma_ops, MA_TARGET, 1);
	if (!ret && spare)
		ret = ma_set_filter(&ma_ops, MA_SPARE, 0);
	if (!ret)
		ret = register_ftrace_function(&ma_ops);
	if (ret) {
		ftrace_free_filter(&ma_ops);
		pr_info("HOOKCOST kernel=%s mode=%s status=unavailable err=%d\n",
			utsname()->release, name, ret);
		return;
	}
	ma_loop(calls);
	before = ma_sum(&ma_hits_b);
	ret = ma_set_filter(&ma_ops, "!" MA_TARGET, 0);
	ma_zero();
	ma_loop(calls);
	after = ma_sum(&ma_hits_b);
	other = ma_sum(&ma_hits_other);
	ma_ops_stop();
	if (ret)
		result = "set_filter_failed";
	else if (after == 0 && other == 0)
		result = "removed";
	else if (after == 0)
		result = "removed_but_traces_others";
	else if (other)
		result = "kept_and_traces_everything";
	else
		result = "kept";
	pr_info("HOOKCOST kernel=%s mode=%s calls=%lu before=%lu after=%lu other=%lu set_filter=%d result=%s\n",
		utsname()->release, name, calls, before, after, other, ret,
		result);
}

static int __init ma_hookcost_init(void)
{
	unsigned int i;
	int m, ret = 0;
	s64 none;

	if (!calls || !rounds)
		return -EINVAL;
	for (m = 0; m < NR_MODES; m++) {
		ma_res[m].ns = kcalloc(rounds, sizeof(u64), GFP_KERNEL);
		if (!ma_res[m].ns) {
			ret = -ENOMEM;
			goto out;
		}
		ma_res[m].exact = true;
	}
	pr_info("HOOKCOST kernel=%s info ibt_config=%d ibt_active=%d calls=%lu rounds=%u fprobe_config=%d fprobe_entry=%s\n",
		utsname()->release, IS_ENABLED(CONFIG_X86_KERNEL_IBT),
		cpu_feature_enabled(X86_FEATURE_IBT) ? 1 : 0, calls, rounds,
		IS_ENABLED(CONFIG_FPROBE), MA_FP_SIG);
	ma_loop(calls);		/* warm-up */
	for (i = 0; i < rounds; i++)
		for (m = 0; m < NR_MODES; m++)
			ma_round(m);
	none = ma_res[M_NONE].done ? ma_centi_per_call(&ma_res[M_NONE]) : 0;
	for (m = 0; m < NR_MODES; m++)
		ma_report(m, none);
	ma_notfilter(true);
	if (notfilter_only)
		ma_notfilter(false);
	pr_info("HOOKCOST kernel=%s done\n", utsname()->release);
out:
	for (m = 0; m < NR_MODES; m++)
		kfree(ma_res[m].ns);
	return ret;
}

static void __exit ma_hookcost_exit(void)
{
}

module_init(ma_hookcost_init);
module_exit(ma_hookcost_exit);
MODULE_DESCRIPTION("mlock_audit test: cost per hit of kprobe, ftrace_ops and fprobe");
MODULE_LICENSE("GPL");
