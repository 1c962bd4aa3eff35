package io.etcdworkers.restore.extract;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.contract.WorkerFlags;
import io.etcdworkers.files.DiskFull;
import io.etcdworkers.rebuild.Rebuild;
import io.etcdworkers.rebuild.RebuildPlan;
import io.etcdworkers.rebuild.Rebuilder;
import io.etcdworkers.rebuild.engine.Phases;
import io.etcdworkers.rebuild.engine.VerifiedDatabase;
import io.etcdworkers.restore.BumpSetting;
import io.etcdworkers.restore.RestoreConfig;
import io.etcdworkers.restore.RestoreService;
import io.etcdworkers.restore.TargetDir;
import io.etcdworkers.restore.extract.encryption.AtRestDecryption;
import io.etcdworkers.restore.extract.encryption.EncryptionConfiguration;
import io.etcdworkers.restore.extract.encryption.EncryptionSummary;
import io.etcdworkers.store.ObjectStore;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The extract, top to bottom: rebuild to the point asked for (the offline engine folds only the
 * prefix and writes a database of nothing else; the replay rebuilds everything), have a real
 * etcd verify it, and either read the prefix's keys from that etcd into files ({@link KeyFiles}) in
 * {@code <output>.part}, or, for {@link OutputFormat#etcd}, place the prefix's database as a data
 * dir the way a restore does. The output is renamed into place only when complete. Nothing is
 * ever written to a live cluster: the only etcd is the worker's own, on loopback.
 *
 * <p>Files of values encrypted at rest hold their plaintext when an EncryptionConfiguration was
 * given ({@link AtRestDecryption}; it is read first, before anything is downloaded). A value it
 * should decrypt and does not fails the extract with nothing placed; values only a KMS plugin can
 * decrypt are written as stored, with a warning.
 */
public final class ExtractService {
    private static final Logger LOG = LoggerFactory.getLogger(ExtractService.class);

    private final ObjectStore store;
    private final ExtractConfig config;
    private final Clock clock;

    public ExtractService(ObjectStore store, ExtractConfig config, Clock clock) {
        this.store = store;
        this.config = config;
        this.clock = clock;
    }

    public ExtractOutcome extract() throws InterruptedException {
        if (config.format() == OutputFormat.etcd) {
            return new ExtractOutcome.AsDataDir(new RestoreService(
                            store,
                            new RestoreConfig(config.rebuild(), config.output(), config.force(), bumpOf(config)),
                            clock)
                    .restore());
        }
        AtRestDecryption decryption =
                AtRestDecryption.of(config.encryptionConfig().map(EncryptionConfiguration::read));
        Rebuilder rebuilder = new Rebuilder(store, config.rebuild(), clock);
        Phases phases = rebuilder.phases();
        // a missing etcd is reported before the output is touched
        rebuilder.binaries();
        try (TargetDir target = TargetDir.prepare(config.output(), config.force(), WorkerFlags.OUTPUT)) {
            RebuildPlan plan = rebuilder.plan();
            VerifiedDatabase verified;
            KeyFiles.Written written;
            try (Rebuild rebuild = rebuilder.start(plan)) {
                verified = rebuild.verify();
                Instant t = phases.start();
                written = write(verified, target, decryption);
                phases.done("writeFiles", t);
            }
            EncryptionSummary encryption = decryption.summary();
            Optional<WorkerException> undecrypted = encryption.failure(config.output());
            if (undecrypted.isPresent()) {
                throw undecrypted.get();
            }
            encryption.warnings().forEach(w -> LOG.warn("encrypted values written as stored: {}", w));
            phases.time("place", target::place);
            LOG.atInfo()
                    .setMessage("extract done")
                    .addKeyValue("output", config.output())
                    .addKeyValue("prefix", config.prefix())
                    .addKeyValue("revision", verified.outcome().finalRevision())
                    .addKeyValue("keys", written.keys())
                    .addKeyValue("encodings", written.encodings())
                    .addKeyValue("kinds", written.kinds())
                    .addKeyValue("decrypted", encryption.decryptedBy())
                    .addKeyValue("leftEncrypted", encryption.leftEncryptedBy())
                    .log();
            return new ExtractOutcome.AsFiles(
                    verified.outcome(),
                    config.output(),
                    written.keys(),
                    written.valueBytes(),
                    written.encodings(),
                    written.kinds(),
                    encryption,
                    phases.snapshot());
        }
    }

    private KeyFiles.Written write(VerifiedDatabase verified, TargetDir target, AtRestDecryption decryption) {
        try {
            return KeyFiles.write(
                    verified.etcd().client(),
                    config.prefix(),
                    verified.outcome().finalRevision(),
                    verified.outcome().served().bounds(),
                    target.part(),
                    decryption);
        } catch (IOException e) {
            throw new WorkerException(
                    ErrorCode.LOCAL_IO,
                    "cannot write the extract into " + target.part() + ": "
                            + DiskFull.explain(e, target.part().getParent()),
                    e);
        }
    }

    /**
     * An extracted data dir is bumped only when asked: it holds a prefix, never a member's data
     * that a backup sidecar checks, and it is read at the revision asked for.
     */
    private static BumpSetting bumpOf(ExtractConfig config) {
        return config.bump().isDefault() ? BumpSetting.of(0) : config.bump();
    }
}
