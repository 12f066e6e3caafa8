// SPDX-License-Identifier: GPL-2.0
/*
 * ma_lruhold: test-only, for tests/guest/93-fix-mlock-stranded. It plays
 * the part of another CPU that has taken a folio off the LRU for a moment:
 * a batch of the LRU code (folio_batch_move_lru(), an mlock or munlock
 * batch) clears PG_lru first and only then waits for the LRU lock. A
 * munlock that comes meanwhile finds PG_lru clear and clears PG_mlocked
 * at once, leaving the folio's mlock_count as it was ("stranded").
 *
 * A write of "hold ADDR" (hexadecimal, an address mapped in the writer's
 * process) clears PG_lru of the folio there, or fails with EBUSY when it
 * is not on the LRU; "release" sets PG_lru again, as such a batch does
 * when it has nothing to do to an unevictable folio. One folio at a time;
 * unloading releases it. A read gives the held folio's state:
 *   held=0|1 order=N mlocked=0|1 unevictable=0|1 mlock_count=N
 * (mlock_count means something only while the folio is unevictable).
 *
 * For tests/guest/91-fix-mlock-disable-stuck it also plays a read or a
 * writeback in flight on a slow device: "lock PATH INDEX" takes the folio
 * lock of the page-cache folio of file PATH at page INDEX and keeps it
 * until "release" (or unloading), as I/O keeps it until the device
 * answers; a read then has a second line:
 *   locked=1 order=N index=N
 */
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/mutex.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>

static DEFINE_MUTEX(ma_lruhold_lock);
static struct folio *ma_held;
static struct folio *ma_locked;		/* with its file, until release */
static struct file *ma_locked_file;

static void ma_lruhold_release(void)
{
	if (ma_locked) {
		folio_unlock(ma_locked);
		folio_put(ma_locked);
		fput(ma_locked_file);
		ma_locked = NULL;
	}
	if (!ma_held)
		return;
	folio_set_lru(ma_held);
	folio_put(ma_held);
	ma_held = NULL;
}

/* filemap_lock_folio(): NULL when absent before v6.4, ERR_PTR since */
static int ma_lruhold_lock_file(const char *path, pgoff_t index)
{
	struct folio *folio;
	struct file *file;

	if (ma_locked)
		return -EBUSY;
	file = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(file))
		return PTR_ERR(file);
	folio = filemap_lock_folio(file->f_mapping, index);
	if (IS_ERR_OR_NULL(folio)) {
		fput(file);
		return -ENOENT;
	}
	ma_locked = folio;
	ma_locked_file = file;
	return 0;
}

static int ma_lruhold_hold(unsigned long addr)
{
	struct folio *folio;
	struct page *page;

	if (ma_held)
		return -EBUSY;
	if (get_user_pages_fast(addr, 1, 0, &page) != 1)
		return -EFAULT;
	folio = page_folio(page);
	if (!folio_test_clear_lru(folio)) {
		folio_put(folio);
		return -EBUSY;
	}
	ma_held = folio;
	return 0;
}

static ssize_t ma_lruhold_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	unsigned long addr;
	char buf[300], path[256];
	unsigned long index;
	int ret = -EINVAL;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	mutex_lock(&ma_lruhold_lock);
	if (sscanf(buf, "hold %lx", &addr) == 1) {
		ret = ma_lruhold_hold(addr);
	} else if (sscanf(buf, "lock %255s %lu", path, &index) == 2) {
		ret = ma_lruhold_lock_file(path, index);
	} else if (sysfs_streq(buf, "release")) {
		ma_lruhold_release();
		ret = 0;
	}
	mutex_unlock(&ma_lruhold_lock);
	return ret ? ret : count;
}

static int ma_lruhold_show(struct seq_file *m, void *v)
{
	struct folio *folio;

	mutex_lock(&ma_lruhold_lock);
	folio = ma_held;
	if (!folio)
		seq_puts(m, "held=0\n");
	else
		seq_printf(m, "held=1 order=%u mlocked=%d unevictable=%d mlock_count=%u\n",
			   folio_order(folio), folio_test_mlocked(folio),
			   folio_test_unevictable(folio),
			   folio_test_unevictable(folio) ? folio->mlock_count : 0);
	if (ma_locked)
		seq_printf(m, "locked=1 order=%u index=%lu\n", folio_order(ma_locked),
			   ma_locked->index);
	mutex_unlock(&ma_lruhold_lock);
	return 0;
}

static int ma_lruhold_open(struct inode *inode, struct file *file)
{
	return single_open(file, ma_lruhold_show, NULL);
}

static const struct proc_ops ma_lruhold_ops = {
	.proc_open = ma_lruhold_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = single_release,
	.proc_write = ma_lruhold_write,
};

static int __init ma_lruhold_init(void)
{
	return proc_create("ma_lruhold", 0600, NULL, &ma_lruhold_ops) ? 0 : -ENOMEM;
}

static void __exit ma_lruhold_exit(void)
{
	remove_proc_entry("ma_lruhold", NULL);
	ma_lruhold_release();
}

module_init(ma_lruhold_init);
module_exit(ma_lruhold_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("mlock_audit test: hold a folio off the LRU, or locked, for a moment");
