package io.etcdworkers.format;

import io.etcdworkers.contract.ErrorCode;

/**
 * A full snapshot a rebuild did not start from because it was found damaged when it was read
 * (hash mismatch, cut short, not decodable, or a bbolt structure that does not hold), so an older
 * full snapshot and its deltas were used instead.
 *
 * @param object the damaged full snapshot's key
 * @param reach the revision its chain would have reached (by the objects' names)
 * @param code what was wrong
 * @param reason one line for a person, naming the object
 */
public record BaseSetAside(String object, long reach, ErrorCode code, String reason) {}
