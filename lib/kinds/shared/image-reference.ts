// Just enough of the container image reference grammar (distribution/reference, as kube's parsers.ParseImageName
// uses it) to know the tag a container image asks for: the default imagePullPolicy depends on it.

const domainComponent = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
const domain = `${domainComponent}(?:\\.${domainComponent})*(?::[0-9]+)?`;
const nameComponent = "[a-z0-9]+(?:(?:[._]|__|[-]*)[a-z0-9]+)*";
const reference = new RegExp(
  `^((?:${domain}/)?${nameComponent}(?:/${nameComponent})*)(?::([\\w][\\w.-]{0,127}))?(?:@([A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}))?$`,
);

/**
 * The tag an image reference resolves to: its tag, "latest" when it names neither tag nor digest, "" when it
 * names only a digest or does not parse.
 */
export function imageTag(image: string): string {
  const match = reference.exec(image);
  if (!match || match[1].length > 255 || /^[a-f0-9]{64}$/.test(image)) return "";
  const [, , tag, digest] = match;
  if (tag) return tag;
  return digest ? "" : "latest";
}
