/*
 * statedump-sys.c - the machine's part of the statedump: interrupts
 * (/proc/interrupts), network interfaces (getifaddrs), block devices
 * (/sys/class/block) and CPUs (/proc/cpuinfo), as lttng-modules'
 * lttng_statedump_interrupt, _network_interface, _block_device and
 * _cpu_topology events.
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Fields as LTTng fills them: an interrupt's name is its chip's name and
 * its action the handler's (one event per action: "virtio1-req.0"), tid
 * the thread of a threaded handler ("irq/N-action"), else 0; a device is
 * the kernel's dev_t (major << 20 | minor), as the block events carry
 * it; an interface without an IPv4 address is dumped with 0.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <ifaddrs.h>
#include <stddef.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fs.h"
#include "kerneld.h"

#define KERNEL_MINORBITS	20	/* the kernel's MINORBITS */

/* The thread "irq/N-<action>" of a threaded handler, else 0. */
static int32_t irq_thread(unsigned int irq, const char *action)
{
	char want[64], path[64], comm[64];
	struct dirent *de;
	int32_t tid = 0;
	DIR *d;

	snprintf(want, sizeof(want), "irq/%u-%.40s", irq, action);
	want[15] = '\0';	/* a comm holds 15 characters */
	d = opendir("/proc");
	while (d && !tid && (de = readdir(d))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/comm", de->d_name);
		if (ust__read_small_file(path, comm, sizeof(comm)))
			continue;
		comm[strcspn(comm, "\n")] = '\0';
		if (!strcmp(comm, want))
			tid = atoi(de->d_name);
	}
	if (d)
		closedir(d);
	return tid;
}

/*
 * "N: count... chip hwirq-type action[, action...]": one event per
 * action.  Lines whose first word is not a number (NMI, LOC...) are
 * architecture counters, not interrupts with handlers.
 */
static void dump_interrupt_line(struct kerneld *kd, uint64_t ts, char *line)
{
	char *save = NULL, *tok, *chip = NULL, *actions = NULL;
	unsigned int irq, i;

	if (sscanf(line, " %u:", &irq) != 1)
		return;
	tok = strtok_r(strchr(line, ':') + 1, " \t\n", &save);
	for (i = 0; tok && i < kd->nr_cpus; i++)
		tok = strtok_r(NULL, " \t\n", &save);	/* the per-CPU counts */
	chip = tok;
	tok = chip ? strtok_r(NULL, " \t\n", &save) : NULL;	/* hwirq-type */
	actions = tok ? strtok_r(NULL, "\n", &save) : NULL;
	if (!chip || !actions)
		return;
	for (tok = strtok_r(actions, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct kd_payload p = { .len = 0 };

		tok += strspn(tok, " \t");
		if (!*tok)
			continue;
		kd_payload_int(&p, irq, 4);
		kd_payload_str(&p, chip);
		kd_payload_str(&p, tok);
		kd_payload_int(&p, (uint32_t)irq_thread(irq, tok), 4);
		kd_statedump_write(kd, &kd->streams[0], SD_INTERRUPT, ts, &p);
	}
}

static void dump_interrupts(struct kerneld *kd, uint64_t ts)
{
	char *line = NULL;
	size_t cap = 0;
	FILE *f = fopen("/proc/interrupts", "re");

	if (!f)
		return;
	while (getline(&line, &cap, f) > 0)
		dump_interrupt_line(kd, ts, line);
	free(line);
	fclose(f);
}

static void dump_interface(struct kerneld *kd, uint64_t ts, const char *name, uint32_t addr)
{
	struct kd_payload p = { .len = 0 };

	kd_payload_str(&p, name);
	kd_payload_be32(&p, addr);
	kd_statedump_write(kd, &kd->streams[0], SD_NETWORK_INTERFACE, ts, &p);
}

/* Every interface that is up: one event per IPv4 address, or one with 0. */
static void dump_network(struct kerneld *kd, uint64_t ts)
{
	struct if_nameindex *names = if_nameindex(), *n;
	struct ifaddrs *ifa = NULL, *a;
	bool any;

	if (getifaddrs(&ifa))
		ifa = NULL;
	for (n = names; n && n->if_index; n++) {
		any = false;
		for (a = ifa; a; a = a->ifa_next) {
			if (!a->ifa_addr || a->ifa_addr->sa_family != AF_INET ||
			    strcmp(a->ifa_name, n->if_name) || !(a->ifa_flags & IFF_UP))
				continue;
			dump_interface(kd, ts, n->if_name,
				       ntohl(((struct sockaddr_in *)a->ifa_addr)->sin_addr.s_addr));
			any = true;
		}
		if (!any)
			dump_interface(kd, ts, n->if_name, 0);
	}
	if (ifa)
		freeifaddrs(ifa);
	if (names)
		if_freenameindex(names);
}

static void dump_block_devices(struct kerneld *kd, uint64_t ts)
{
	char path[300], buf[32];
	unsigned int major, minor;
	struct dirent *de;
	DIR *d = opendir("/sys/class/block");

	while (d && (de = readdir(d))) {
		struct kd_payload p = { .len = 0 };

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/block/%.255s/dev", de->d_name);
		if (ust__read_small_file(path, buf, sizeof(buf)) ||
		    sscanf(buf, "%u:%u", &major, &minor) != 2)
			continue;
		kd_payload_int(&p, (major << KERNEL_MINORBITS) | minor, 4);
		kd_payload_str(&p, de->d_name);
		kd_statedump_write(kd, &kd->streams[0], SD_BLOCK_DEVICE, ts, &p);
	}
	if (d)
		closedir(d);
}

/* One CPU of /proc/cpuinfo, as LTTng's x86 cpu_topology. */
struct cpu_info {
	long cpu, family, model, physical, core, cores;
	char vendor[64], model_name[128];
};

/* A text field of struct cpu_info: its offset and its buffer's size. */
#define CPU_TEXT(field) \
	offsetof(struct cpu_info, field), sizeof(((struct cpu_info *)0)->field)

/* The keys of /proc/cpuinfo kept: a number (text_size 0), or text. */
static const struct cpuinfo_key {
	const char *key;
	size_t offset;
	size_t text_size;
} cpuinfo_keys[] = {
	{ "processor",		offsetof(struct cpu_info, cpu),		0 },
	{ "vendor_id",		CPU_TEXT(vendor) },
	{ "cpu family",		offsetof(struct cpu_info, family),	0 },
	{ "model",		offsetof(struct cpu_info, model),	0 },
	{ "model name",		CPU_TEXT(model_name) },
	{ "physical id",	offsetof(struct cpu_info, physical),	0 },
	{ "core id",		offsetof(struct cpu_info, core),	0 },
	{ "cpu cores",		offsetof(struct cpu_info, cores),	0 },
};

static void cpuinfo_value(struct cpu_info *c, const char *key, const char *val)
{
	size_t i;

	for (i = 0; i < sizeof(cpuinfo_keys) / sizeof(cpuinfo_keys[0]); i++) {
		const struct cpuinfo_key *k = &cpuinfo_keys[i];
		char *field = (char *)c + k->offset;

		if (strcmp(key, k->key))
			continue;
		if (k->text_size)
			snprintf(field, k->text_size, "%s", val);
		else
			*(long *)field = atol(val);
		return;
	}
}

static void dump_cpu(struct kerneld *kd, uint64_t ts, const struct cpu_info *c)
{
	struct kd_payload p = { .len = 0 };

	if (c->cpu < 0)
		return;
	kd_payload_str(&p, "x86");
	kd_payload_int(&p, (uint16_t)c->cpu, 2);
	kd_payload_str(&p, c->vendor[0] ? c->vendor : "unknown");
	kd_payload_int(&p, (uint8_t)c->family, 1);
	kd_payload_int(&p, (uint8_t)c->model, 1);
	kd_payload_str(&p, c->model_name[0] ? c->model_name : "unknown");
	kd_payload_int(&p, (uint16_t)c->physical, 2);
	kd_payload_int(&p, (uint16_t)c->core, 2);
	kd_payload_int(&p, (uint16_t)c->cores, 2);
	kd_statedump_write(kd, &kd->streams[0], SD_CPU_TOPOLOGY, ts, &p);
}

static void dump_cpus(struct kerneld *kd, uint64_t ts)
{
	struct cpu_info c = { .cpu = -1 };
	char *line = NULL, *colon, *end;
	size_t cap = 0;
	FILE *f = fopen("/proc/cpuinfo", "re");

	while (f && getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0]) {		/* a blank line ends a CPU */
			dump_cpu(kd, ts, &c);
			c = (struct cpu_info){ .cpu = -1 };
			continue;
		}
		colon = strchr(line, ':');
		if (!colon)
			continue;
		for (end = colon; end > line && (end[-1] == ' ' || end[-1] == '\t'); end--)
			;
		*end = '\0';
		cpuinfo_value(&c, line, colon[1] == ' ' ? colon + 2 : colon + 1);
	}
	dump_cpu(kd, ts, &c);
	free(line);
	if (f)
		fclose(f);
}

void kd_statedump_system(struct kerneld *kd, uint64_t ts)
{
	dump_interrupts(kd, ts);
	dump_network(kd, ts);
	dump_block_devices(kd, ts);
	dump_cpus(kd, ts);
}
