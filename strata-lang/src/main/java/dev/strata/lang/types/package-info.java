/**
 * The Terraform type system: primitive, collection and structural types plus the dynamic
 * pseudo-type ({@code any}), with Terraform's two renderings (friendly names such as
 * {@code list of string} and type expressions such as {@code list(string)}).
 *
 * <p>Entry point: {@link dev.strata.lang.types.Type} and its constants; object type
 * constraints with {@code optional(...)} attributes are built with
 * {@link dev.strata.lang.types.ObjectType#builder()}.
 */
package dev.strata.lang.types;
