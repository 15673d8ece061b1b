/** Ids that need no escaping in a path segment (uuids, names): tested faster than escaped. */
const UNRESERVED = /^[\w.~-]*$/;

/** `<base><path>/<id>` with the id escaped: the `self` link of an object. */
export const objectUrl = (baseUrl: string, path: string, id: string) =>
  `${baseUrl}${path}/${UNRESERVED.test(id) ? id : encodeURIComponent(id)}`;
