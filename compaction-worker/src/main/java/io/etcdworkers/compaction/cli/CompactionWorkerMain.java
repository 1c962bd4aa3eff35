package io.etcdworkers.compaction.cli;

public final class CompactionWorkerMain {
    public static void main(String[] args) {
        System.out.println("placeholder");
    }
}
