package dev.strata.provider;

import dev.strata.lang.types.Type;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A function a provider offers to configurations, called there as {@code provider::NAME::FUNC(...)}
 * where NAME is the provider's local name in the calling module (protocol 6's GetFunctions).
 * Arguments reach {@link Provider#callFunction} converted to the parameters' types; a parameter of
 * {@link Type#DYNAMIC} receives the argument with its own type.
 *
 * @param name              the bare name ({@code arn_parse})
 * @param parameters        the positional parameters
 * @param variadicParameter the parameter that takes any further arguments, if any
 * @param returnType        the type of the result
 */
public record ProviderFunction(
        String name,
        List<Parameter> parameters,
        Optional<Parameter> variadicParameter,
        Type returnType,
        String summary,
        String description) {
    public ProviderFunction {
        Objects.requireNonNull(name, "name");
        parameters = List.copyOf(parameters);
        Objects.requireNonNull(variadicParameter, "variadicParameter");
        Objects.requireNonNull(returnType, "returnType");
        summary = summary == null ? "" : summary;
        description = description == null ? "" : description;
    }

    /**
     * One parameter. Unless {@code allowNull}, a null argument is an error before the provider is
     * called; unless {@code allowUnknown}, an argument that is not wholly known makes the result
     * unknown without calling the provider.
     */
    public record Parameter(String name, Type type, boolean allowNull, boolean allowUnknown, String description) {
        public Parameter {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
            description = description == null ? "" : description;
        }

        public static Parameter of(String name, Type type) {
            return new Parameter(name, type, false, false, "");
        }
    }
}
