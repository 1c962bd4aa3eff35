package io.etcdworkers.bench.measure;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs a worker command as a child process and samples it: every interval, the process tree's
 * memory and CPU from {@code /proc}, the scratch database file's size, and the progress the
 * worker last logged. Writes {@code samples.csv}, the worker's stderr as {@code worker.log} and
 * its stdout (the result JSON) as {@code result.json}; {@link RunSummary} digests them.
 */
public final class WorkerRun {
    private final RunSpec spec;
    private final ProgressState progress = new ProgressState();

    public WorkerRun(RunSpec spec) {
        this.spec = spec;
    }

    /** Runs to completion and returns the summary (also written to {@code summary.json}). */
    public RunSummary run() throws IOException, InterruptedException {
        Files.createDirectories(spec.outDir());
        String loadBefore = MachineLoad.loadAverages();
        double busyBefore = MachineLoad.busyCpuSeconds();
        long started = System.nanoTime();
        Process process = new ProcessBuilder(spec.command())
                .redirectOutput(spec.outDir().resolve("result.json").toFile())
                .redirectError(ProcessBuilder.Redirect.PIPE)
                .start();
        Thread stderr = new Thread(() -> pumpStderr(process, started), "worker-stderr");
        stderr.start();
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sampler");
            t.setDaemon(true);
            return t;
        });
        try (PrintWriter csv =
                new PrintWriter(Files.newBufferedWriter(spec.outDir().resolve("samples.csv")))) {
            csv.println(Sample.CSV_HEADER);
            sampler.scheduleAtFixedRate(
                    () -> csv.println(sample(process.pid(), started).csv()),
                    0,
                    spec.interval().toMillis(),
                    TimeUnit.MILLISECONDS);
            int exit = process.waitFor();
            double wall = (System.nanoTime() - started) / 1e9;
            sampler.shutdown();
            sampler.awaitTermination(10, TimeUnit.SECONDS);
            stderr.join();
            double busy = MachineLoad.busyCpuSeconds() - busyBefore;
            csv.flush();
            return RunSummary.write(
                    spec, exit, wall, loadBefore, MachineLoad.loadAverages(), busy, progress.defragLog());
        }
    }

    private Sample sample(long root, long started) {
        List<ProcessTree.Proc> tree = ProcessTree.of(root);
        long rss = 0;
        long jvm = 0;
        long etcd = 0;
        long anon = 0;
        long etcdAnon = 0;
        long ticks = 0;
        for (ProcessTree.Proc p : tree) {
            ticks += p.cpuTicks();
            if (p.pid() == root && p.comm().equals("time")) {
                continue;
            }
            rss += p.rssBytes();
            anon += p.anonBytes();
            if (p.comm().equals("java")) {
                jvm += p.rssBytes();
            } else if (p.comm().equals("etcd")) {
                etcd += p.rssBytes();
                etcdAnon += p.anonBytes();
            }
        }
        long db = DbFile.size(spec.dbFile());
        return new Sample(
                (System.nanoTime() - started) / 1e9,
                rss,
                jvm,
                etcd,
                anon,
                etcdAnon,
                ticks,
                db,
                progress.dbSize(),
                progress.dbInUse(),
                progress.events(),
                progress.eventsPerSecond());
    }

    private void pumpStderr(Process process, long started) {
        try (BufferedReader in =
                        new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8));
                Writer log = Files.newBufferedWriter(spec.outDir().resolve("worker.log"))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                progress.accept(line, (System.nanoTime() - started) / 1e9);
                log.write(line);
                log.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading the worker's stderr", e);
        }
    }
}
