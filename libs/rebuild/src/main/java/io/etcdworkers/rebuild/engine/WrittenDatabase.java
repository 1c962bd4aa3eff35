package io.etcdworkers.rebuild.engine;

import java.nio.file.Path;

/**
 * A database file an engine wrote, not yet verified.
 *
 * @param file the database, SHA-256 trailer included
 * @param revision the revision it opens at, if the verification passes
 */
public record WrittenDatabase(Path file, long revision) {}
