"""A BaseException subclass at import."""


class Boom(BaseException):
    pass


raise Boom("not an Exception")
