package io.etcdworkers.format;

/** The two etcd watch event types, numbered as in etcd's protobuf (PUT 0, DELETE 1). */
public enum EventType {
    PUT,
    DELETE;

    static EventType fromNumber(long number) {
        if (number == 0) {
            return PUT;
        }
        if (number == 1) {
            return DELETE;
        }
        throw new IllegalArgumentException("unknown event type " + number + " (expected 0 PUT or 1 DELETE)");
    }
}
