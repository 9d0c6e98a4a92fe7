package dev.strata.engine;

import dev.strata.addr.AbsResource;
import java.util.List;

/**
 * A resource (or every resource of a module instance) whose {@code count}/{@code for_each} is not
 * known at plan time. The apply expands it as soon as what it depends on exists (ARCHITECTURE §3.6).
 *
 * @param dependsOn the references whose values are not known yet, as written, e.g. {@code aws_vpc.main.id}
 * @param argument  {@code count} or {@code for_each}
 */
public record DeferredResource(AbsResource addr, String argument, List<String> dependsOn) {
    public DeferredResource {
        dependsOn = List.copyOf(dependsOn);
    }
}
