package io.etcdworkers.contract;

import java.util.List;

/**
 * JVM options every way of starting a worker shares: the launcher's Jobs (their {@code
 * JAVA_TOOL_OPTIONS}), the image's default, and {@code worker-jvm.options}, the argument file the
 * start scripts ({@code bin/restore-worker}, {@code bin/compaction-worker}, which the README and
 * {@code demo.sh} use) start the workers with ({@code java @worker-jvm.options -jar ...}).
 */
public final class WorkerJvm {
    /**
     * C2, the optimizing compiler, takes a method once it ran four times as often as HotSpot's
     * defaults ask (which suit a server that runs for days). On two cores a fold is CPU-bound, and
     * at the defaults C2 spent 5-7 s of CPU compiling methods that were warm, not hot, during a
     * 9-10 s fold; at these thresholds 3-4.5 s, and the fold and the whole restore ended 1-1.5 s
     * sooner; a restore with nothing to fold was not slower
     * (docs/benchmarks.md#jit-thresholds-and-inlining).
     *
     * <p>And C2 inlines less: hot callees up to 150 bytecodes instead of 325, others up to 20
     * instead of 35, none whose compiled code is over 1,000 bytes. The fold's loops had grown to
     * 40-70 KB of machine code each (the bolt reader's walk took 0.6 s to compile), and C2's loop
     * optimizer and register allocator spent most of their time on them: C2's CPU went from 4-6 s
     * to 2.6-3 s at 300k events, the restore ended 0.5-1 s sooner, and at 3,000,000 keys the fold
     * was not slower (docs/benchmarks.md#jit-thresholds-and-inlining).
     */
    public static final List<String> JIT = List.of(
            "-XX:Tier4InvocationThreshold=20000",
            "-XX:Tier4CompileThreshold=30000",
            "-XX:Tier4BackEdgeThreshold=120000",
            "-XX:FreqInlineSize=150",
            "-XX:MaxInlineSize=20",
            "-XX:InlineSmallCode=1000");

    /**
     * The class data archive the image holds beside each worker's jar ({@code
     * /app/restore-worker.jsa} for {@code /app/restore-worker.jar}): the classes a restore or a
     * compaction loads, already parsed, verified and laid out, written by a run of each worker at
     * image build time ({@code -XX:ArchiveClassesAtExit}). Loading the worker's classes (gRPC,
     * Netty, Jackson, the store clients) took about a second of CPU per start; with the archive a
     * 300k-event restore took 0.1-0.9 s less and a full-snapshot-only restore up to 0.7 s; a
     * compaction did not measurably change (docs/benchmarks.md#class-archives). A JVM that finds no
     * archive there, or one written for other jars, starts without it (the latter with one
     * warning line).
     */
    public static String classArchiveFor(String jar) {
        if (!jar.endsWith(".jar")) {
            throw new IllegalArgumentException("not a jar: " + jar);
        }
        return jar.substring(0, jar.length() - ".jar".length()) + ".jsa";
    }

    /** The option that has the JVM map {@link #classArchiveFor} {@code jar}. */
    public static String classArchiveOption(String jar) {
        return "-XX:SharedArchiveFile=" + classArchiveFor(jar);
    }

    private WorkerJvm() {}
}
