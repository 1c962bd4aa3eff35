package io.etcdworkers.bench.measure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a process and all its descendants from {@code /proc}: resident memory
 * ({@code statm}'s resident pages, the same figure as {@code VmRSS}), its anonymous part
 * ({@code RssAnon}: heap, not file pages such as etcd's mmap'd database) and CPU ticks
 * ({@code utime + stime}, plus {@code cutime + cstime} so children that already exited and were
 * waited for, like {@code etcdctl snapshot restore}, still count).
 */
public final class ProcessTree {
    private static final long PAGE = 4096;
    private static final Path PROC = Path.of("/proc");

    /** One process as read. */
    public record Proc(long pid, long ppid, String comm, long rssBytes, long anonBytes, long cpuTicks) {}

    private ProcessTree() {}

    /** {@code root} and its descendants now; processes that vanish while reading are skipped. */
    public static List<Proc> of(long root) {
        Map<Long, List<Proc>> children = new HashMap<>();
        Proc rootProc = null;
        try (DirectoryStream<Path> dirs =
                Files.newDirectoryStream(PROC, p -> isNumeric(p.getFileName().toString()))) {
            for (Path dir : dirs) {
                Proc p = read(dir);
                if (p == null) {
                    continue;
                }
                if (p.pid() == root) {
                    rootProc = p;
                }
                children.computeIfAbsent(p.ppid(), k -> new ArrayList<>()).add(p);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list /proc", e);
        }
        List<Proc> tree = new ArrayList<>();
        if (rootProc == null) {
            return tree;
        }
        Deque<Proc> todo = new ArrayDeque<>(List.of(rootProc));
        while (!todo.isEmpty()) {
            Proc p = todo.pop();
            // status is read only for the tree's members: reading it for every process costs
            tree.add(new Proc(p.pid(), p.ppid(), p.comm(), p.rssBytes(), anon(p.pid()), p.cpuTicks()));
            todo.addAll(children.getOrDefault(p.pid(), List.of()));
        }
        return tree;
    }

    private static Proc read(Path dir) {
        try {
            String stat = Files.readString(dir.resolve("stat"), StandardCharsets.US_ASCII);
            int open = stat.indexOf('(');
            int close = stat.lastIndexOf(')');
            String comm = stat.substring(open + 1, close);
            String[] f = stat.substring(close + 2).split(" ");
            // after "pid (comm) ": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
            // utime stime cutime cstime ...
            long ppid = Long.parseLong(f[1]);
            long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
            String statm = Files.readString(dir.resolve("statm"), StandardCharsets.US_ASCII);
            long rss = Long.parseLong(statm.split(" ")[1]) * PAGE;
            return new Proc(Long.parseLong(dir.getFileName().toString()), ppid, comm, rss, 0, ticks);
        } catch (IOException | RuntimeException gone) {
            return null;
        }
    }

    private static long anon(long pid) {
        try {
            for (String line :
                    Files.readAllLines(PROC.resolve(Long.toString(pid)).resolve("status"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("RssAnon:")) {
                    return Long.parseLong(line.substring(8).trim().split("\\s+")[0]) * 1024;
                }
            }
        } catch (IOException | RuntimeException gone) {
            // exited since its stat was read
        }
        return 0;
    }

    private static boolean isNumeric(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (!Character.isDigit(s.charAt(i))) {
                return false;
            }
        }
        return !s.isEmpty();
    }
}
