package io.etcdworkers.rebuild.engine;

/**
 * What the engine that built a database did besides applying the revisions: one of the two, as
 * there is one engine per database ({@code --engine=auto}'s is the one that built it).
 */
public sealed interface EngineWork permits ReplayWork, FoldWork {}
