// SPDX-License-Identifier: GPL-2.0
/*
 * ma_hold: test-only, for tests/host/enable-window. It keeps a livepatch
 * transition open, and unmaps memory from a task that the transition has
 * not switched.
 *
 * A write of "ADDR LEN" (hexadecimal) to /proc/ma_hold waits in
 * ma_hold_wait() until 1 is written to /sys/module/ma_hold/parameters/
 * release, then unmaps [ADDR, ADDR + LEN) of the writer's process with
 * vm_munmap() and returns; one writer at a time (another gets EBUSY), and
 * parameters/waiting is 1 while it waits. mlock_audit built with
 * the break hold (or hold_early_mlock) also replaces
 * ma_hold_wait(): the livepatch core cannot switch a task that waits in
 * it, so the transition stays open as long as the writer waits, and the
 * unmap then runs the kernel's own code.
 */
#include <linux/sched/signal.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/proc_fs.h>
#include <linux/uaccess.h>

static bool release;
module_param(release, bool, 0644);
MODULE_PARM_DESC(release, "1: the writers waiting go on");

static DEFINE_MUTEX(ma_hold_one);	/* one writer at a time */
static int waiting;
module_param(waiting, int, 0444);
MODULE_PARM_DESC(waiting, "1 while a writer waits in ma_hold_wait()");

/*
 * noinline, without arguments (so gcc makes no clone of it under another
 * name): the livepatch finds it by its name. The sleep is killable, not
 * interruptible: after 15 s the livepatch core wakes a waiting task as if
 * a signal had come, which would end an interruptible wait.
 */
static noinline int ma_hold_wait(void)
{
	while (!READ_ONCE(release)) {
		if (fatal_signal_pending(current))
			return -EINTR;
		schedule_timeout_killable(HZ / 10);
	}
	return 0;
}

static ssize_t ma_hold_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	unsigned long addr, len;
	char buf[48];
	int ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (sscanf(buf, "%lx %lx", &addr, &len) != 2)
		return -EINVAL;
	if (!mutex_trylock(&ma_hold_one))
		return -EBUSY;
	WRITE_ONCE(waiting, 1);
	ret = ma_hold_wait();
	WRITE_ONCE(waiting, 0);
	if (!ret)
		ret = vm_munmap(addr, len);
	mutex_unlock(&ma_hold_one);
	return ret ? ret : count;
}

static const struct proc_ops ma_hold_ops = {
	.proc_write = ma_hold_write,
};

static int __init ma_hold_init(void)
{
	return proc_create("ma_hold", 0200, NULL, &ma_hold_ops) ? 0 : -ENOMEM;
}

static void __exit ma_hold_exit(void)
{
	remove_proc_entry("ma_hold", NULL);
}

module_init(ma_hold_init);
module_exit(ma_hold_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("mlock_audit test: hold a livepatch transition open");
