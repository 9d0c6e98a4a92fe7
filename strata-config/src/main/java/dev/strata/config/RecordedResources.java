package dev.strata.config;

import dev.strata.addr.InstanceKey;
import dev.strata.addr.Resource;
import dev.strata.lang.value.Value;
import java.util.Optional;

/**
 * The values a state records for a module's resources, for the inspect phase ({@code strata console}
 * with a state): what {@link ConfigData} resolves a resource reference to before falling back to the
 * configuration.
 */
@FunctionalInterface
public interface RecordedResources {
    /** Nothing recorded: every resource is the configuration's. */
    RecordedResources NONE = (resource, key) -> Optional.empty();

    /** The recorded value of the whole resource ({@code key} null) or of one instance, if recorded. */
    Optional<Value> value(Resource resource, InstanceKey key);
}
