package dev.strata.cloudsim;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The simulator's one JSON mapper. */
final class Json {

    /**
     * Parsers and generators borrow their byte and char buffers from a pool shared by all threads. Jackson's
     * default pool keeps them per thread, which recycles nothing here: every exchange runs on a new virtual
     * thread, so each request would allocate (and fetch through a fresh thread-local) its buffers anew.
     */
    static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder()
            .recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool())
            .build());

    private Json() {}
}
