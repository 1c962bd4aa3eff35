package io.etcdworkers.bench.measure;

import java.util.Locale;

/**
 * One sample of a running worker.
 *
 * @param seconds since the worker started
 * @param treeRss resident bytes of the whole process tree (JVM, etcd, tools), without the
 *     {@code /usr/bin/time} wrapper
 * @param jvmRss resident bytes of the {@code java} processes
 * @param etcdRss resident bytes of the {@code etcd} processes
 * @param treeAnon anonymous resident bytes of the tree (without file pages: etcd's mmap'd db)
 * @param etcdAnon anonymous resident bytes of etcd
 * @param cpuTicks CPU ticks of the tree so far (1/100 s)
 * @param dbFile size of the scratch database file on disk
 * @param dbSize etcd's dbSize from the last progress line
 * @param dbInUse etcd's dbSizeInUse from the last progress line
 * @param events events applied, from the last progress line
 * @param eventsPerSecond the rate the last progress line reported
 */
public record Sample(
        double seconds,
        long treeRss,
        long jvmRss,
        long etcdRss,
        long treeAnon,
        long etcdAnon,
        long cpuTicks,
        long dbFile,
        long dbSize,
        long dbInUse,
        long events,
        long eventsPerSecond) {

    static final String CSV_HEADER =
            "seconds,treeRss,jvmRss,etcdRss,treeAnon,etcdAnon,cpuTicks,dbFile,dbSize,dbInUse,events,eventsPerSecond";

    String csv() {
        return String.format(
                Locale.ROOT,
                "%.3f,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d",
                seconds,
                treeRss,
                jvmRss,
                etcdRss,
                treeAnon,
                etcdAnon,
                cpuTicks,
                dbFile,
                dbSize,
                dbInUse,
                events,
                eventsPerSecond);
    }

    /** Parses a line written by {@link #csv()}. */
    public static Sample parse(String line) {
        String[] f = line.split(",");
        return new Sample(
                Double.parseDouble(f[0]),
                Long.parseLong(f[1]),
                Long.parseLong(f[2]),
                Long.parseLong(f[3]),
                Long.parseLong(f[4]),
                Long.parseLong(f[5]),
                Long.parseLong(f[6]),
                Long.parseLong(f[7]),
                Long.parseLong(f[8]),
                Long.parseLong(f[9]),
                Long.parseLong(f[10]),
                Long.parseLong(f[11]));
    }
}
